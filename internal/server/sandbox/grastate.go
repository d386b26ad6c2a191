package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// graState is what a node's grastate.dat says of its data: the cluster it
// belongs to, the last write-set it applied (seqno, -1 when unknown, e.g.
// after a crash) and whether the cluster may be bootstrapped from it (set
// on the last node to leave a cluster cleanly).
type graState struct {
	UUID            string
	Seqno           int64
	SafeToBootstrap bool
}

const grastateFile = "grastate.dat"

// readGrastate reads datadir's grastate.dat; ok is false when there is
// none (the node never joined a cluster).
func readGrastate(datadir string) (g graState, ok bool, err error) {
	f, err := os.Open(filepath.Join(datadir, grastateFile))
	if errors.Is(err, os.ErrNotExist) {
		return g, false, nil
	}
	if err != nil {
		return g, false, err
	}
	defer f.Close()
	g.Seqno = -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, found := strings.Cut(sc.Text(), ":")
		if !found {
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "uuid":
			g.UUID = value
		case "seqno":
			if n, err := strconv.ParseInt(value, 10, 64); err == nil {
				g.Seqno = n
			}
		case "safe_to_bootstrap":
			g.SafeToBootstrap = value == "1"
		}
	}
	return g, g.UUID != "", sc.Err()
}

// markSafeToBootstrap sets safe_to_bootstrap: 1 in datadir's grastate.dat,
// as an operator does on the node chosen to bootstrap a cluster whose nodes
// all stopped uncleanly: Galera refuses to bootstrap from a node without it.
func markSafeToBootstrap(datadir string) error {
	p := filepath.Join(datadir, grastateFile)
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	lines := strings.Split(string(b), "\n")
	found := false
	for i, l := range lines {
		if k, _, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "safe_to_bootstrap" {
			lines[i], found = "safe_to_bootstrap: 1", true
		}
	}
	if !found {
		lines = append(lines[:len(lines)-1], "safe_to_bootstrap: 1", "")
	}
	return os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o660)
}

// recoveredRE matches what "mariadbd --wsrep-recover" logs.
var recoveredRE = regexp.MustCompile(`Recovered position:\s*([0-9a-fA-F-]{36}):(-?\d+)`)

// recoverPosition runs the node's server with --wsrep-recover, which reads
// the last committed write-set from InnoDB, logs it and exits: what
// grastate.dat cannot say after a crash.
func (n *Node) recoverPosition(ctx context.Context) (uuid string, seqno int64, err error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	logStart := fileSize(n.ErrorLog)
	args := []string{"--defaults-file=" + n.OptionFile, "--datadir=" + n.DataDir, "--wsrep-recover"}
	if out, err := exec.CommandContext(ctx, n.Binary.Path, args...).CombinedOutput(); err != nil {
		return "", 0, fmt.Errorf("%s: --wsrep-recover: %v: %s", n.Name, err, errorLines(string(out)+readTailFrom(n.ErrorLog, logStart)))
	}
	m := recoveredRE.FindAllStringSubmatch(readTailFrom(n.ErrorLog, logStart), -1)
	if m == nil {
		return "", 0, fmt.Errorf("%s: --wsrep-recover logged no position (log: %s)", n.Name, n.ErrorLog)
	}
	last := m[len(m)-1]
	seqno, err = strconv.ParseInt(last[2], 10, 64)
	return last[1], seqno, err
}

// recoverPositions finds, for every stopped node that crashed (grastate.dat
// with the cluster's UUID but seqno -1), the position its InnoDB data
// reached, as mysqld_safe --wsrep-recover does, and has the node start
// from it (--wsrep-start-position). Without it a bootstrap node would start
// a new cluster history (a new UUID), and every joiner would need a full
// state transfer instead of an incremental one.
func (c *Cluster) recoverPositions(ctx context.Context) error {
	for _, n := range c.Nodes {
		n.startPosition = ""
		if n.Running() {
			continue
		}
		g, ok, err := readGrastate(n.DataDir)
		if err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		if !ok || g.Seqno >= 0 || g.UUID == zeroUUID {
			continue
		}
		uuid, seqno, err := n.recoverPosition(ctx)
		if err != nil {
			return err
		}
		if uuid == zeroUUID || seqno < 0 {
			continue
		}
		n.startPosition = fmt.Sprintf("%s:%d", uuid, seqno)
		fmt.Fprintf(c.log, "%s stopped uncleanly: recovered position %s\n", n.Name, n.startPosition)
	}
	return nil
}

const zeroUUID = "00000000-0000-0000-0000-000000000000"

// seqno is the node's last write-set: the recovered one, else grastate's.
func (n *Node) seqno(g graState) int64 {
	if _, s, ok := strings.Cut(n.startPosition, ":"); ok {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return v
		}
	}
	return g.Seqno
}

// bootstrapNode chooses the node a stopped cluster starts again from: the
// one grastate.dat marks safe to bootstrap (the last to leave cleanly),
// else the one holding the most recent write-set, read from grastate.dat
// or recovered from InnoDB (recoverPositions, first), which is then marked
// safe. Nodes that never
// joined (no grastate.dat) are not candidates. The second result says
// whether the node has data at all: when none has, the cluster is new.
func (c *Cluster) bootstrapNode(ctx context.Context) (*Node, bool, error) {
	type candidate struct {
		n *Node
		g graState
	}
	var cands []candidate
	for _, n := range c.Nodes {
		g, ok, err := readGrastate(n.DataDir)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", n.Name, err)
		}
		if !ok || g.UUID == zeroUUID {
			continue
		}
		if g.SafeToBootstrap {
			fmt.Fprintf(c.log, "%s left the cluster last (safe_to_bootstrap: 1, seqno %d): bootstrapping from it\n", n.Name, g.Seqno)
			return n, true, nil
		}
		cands = append(cands, candidate{n, g})
	}
	if len(cands) == 0 {
		return c.Nodes[0], dirExists(filepath.Join(c.Nodes[0].DataDir, "mysql")), nil
	}
	var best *candidate
	for i := range cands {
		cd := &cands[i]
		cd.g.Seqno = cd.n.seqno(cd.g)
		if best == nil || cd.g.Seqno > best.g.Seqno {
			best = cd
		}
	}
	fmt.Fprintf(c.log, "no node is marked safe to bootstrap: %s has the highest seqno (%d), bootstrapping from it\n", best.n.Name, best.g.Seqno)
	if err := markSafeToBootstrap(best.n.DataDir); err != nil {
		return nil, false, fmt.Errorf("%s: %w", best.n.Name, err)
	}
	return best.n, true, nil
}

// saveGrastate saves pos (uuid:seqno) as the Galera state of datadir.
func saveGrastate(datadir, pos string) error {
	uuid, seqno, _ := strings.Cut(pos, ":")
	body := fmt.Sprintf("# GALERA saved state\nversion: 2.1\nuuid:    %s\nseqno:   %s\nsafe_to_bootstrap: 0\n", uuid, seqno)
	if err := os.WriteFile(filepath.Join(datadir, grastateFile), []byte(body), 0o644); err != nil {
		return fmt.Errorf("write the Galera position %s: %w", pos, err)
	}
	return nil
}
