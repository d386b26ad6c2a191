package sandbox

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testUUID = "d8fbea83-ed34-11f1-9561-1b03c82772b6"

func writeGrastate(t *testing.T, datadir string, seqno string, safe bool) {
	t.Helper()
	if err := os.MkdirAll(datadir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := "0"
	if safe {
		s = "1"
	}
	text := "# GALERA saved state\nversion: 2.1\nuuid:    " + testUUID + "\nseqno:   " + seqno + "\nsafe_to_bootstrap: " + s + "\n"
	if err := os.WriteFile(filepath.Join(datadir, grastateFile), []byte(text), 0o660); err != nil {
		t.Fatal(err)
	}
}

func fakeCluster(t *testing.T, nodes int) *Cluster {
	dir := t.TempDir()
	c := &Cluster{Name: "g", Dir: dir, log: io.Discard}
	for i := 1; i <= nodes; i++ {
		n := newNode(dir, i)
		n.log = io.Discard
		c.Nodes = append(c.Nodes, n)
	}
	return c
}

func TestReadGrastate(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := readGrastate(dir); ok || err != nil {
		t.Fatalf("no file: ok %v, %v", ok, err)
	}
	writeGrastate(t, dir, "-1", false)
	g, ok, err := readGrastate(dir)
	if !ok || err != nil || g.UUID != testUUID || g.Seqno != -1 || g.SafeToBootstrap {
		t.Fatalf("got %+v ok %v %v", g, ok, err)
	}
	if err := markSafeToBootstrap(dir); err != nil {
		t.Fatal(err)
	}
	if g, _, _ := readGrastate(dir); !g.SafeToBootstrap || g.UUID != testUUID {
		t.Errorf("after marking: %+v", g)
	}
}

// A cluster whose nodes all left cleanly starts again from the one that
// left last, whatever its place.
func TestBootstrapFromTheSafeNode(t *testing.T) {
	c := fakeCluster(t, 3)
	writeGrastate(t, c.Nodes[0].DataDir, "7", false)
	writeGrastate(t, c.Nodes[1].DataDir, "9", true)
	writeGrastate(t, c.Nodes[2].DataDir, "8", false)
	n, hasData, err := c.bootstrapNode(context.Background())
	if err != nil || n != c.Nodes[1] || !hasData {
		t.Fatalf("bootstrap from %v (data %v, %v), want node2", n, hasData, err)
	}
}

// With no node safe (e.g. the cluster lost its quorum), the one holding
// the most recent write-set is chosen and marked safe, as Galera requires.
func TestBootstrapFromTheMostRecentNode(t *testing.T) {
	c := fakeCluster(t, 3)
	writeGrastate(t, c.Nodes[0].DataDir, "7", false)
	writeGrastate(t, c.Nodes[1].DataDir, "8", false)
	writeGrastate(t, c.Nodes[2].DataDir, "-1", false)
	c.Nodes[2].startPosition = testUUID + ":12" // recovered from InnoDB
	n, _, err := c.bootstrapNode(context.Background())
	if err != nil || n != c.Nodes[2] {
		t.Fatalf("bootstrap from %v (%v), want node3, the recovered seqno 12", n, err)
	}
	if g, _, _ := readGrastate(c.Nodes[2].DataDir); !g.SafeToBootstrap {
		t.Error("the chosen node was not marked safe to bootstrap")
	}
	if g, _, _ := readGrastate(c.Nodes[1].DataDir); g.SafeToBootstrap {
		t.Error("another node was marked safe to bootstrap")
	}
}

// A new cluster (no node ever joined) bootstraps node1, which has no data
// yet.
func TestBootstrapANewCluster(t *testing.T) {
	c := fakeCluster(t, 2)
	n, hasData, err := c.bootstrapNode(context.Background())
	if err != nil || n != c.Nodes[0] || hasData {
		t.Fatalf("bootstrap from %v (data %v, %v), want node1 without data", n, hasData, err)
	}
}

func TestRecoveredPositionFromTheLog(t *testing.T) {
	log := "2026-12-01  3:08:41 0 [Note] WSREP: Recovered position: " + testUUID + ":17\n"
	m := recoveredRE.FindStringSubmatch(log)
	if m == nil || m[1] != testUUID || m[2] != "17" {
		t.Fatalf("got %q", m)
	}
	if recoveredRE.MatchString(strings.Replace(log, "Recovered position", "Found saved state", 1)) {
		t.Error("matched a line that is not a recovery")
	}
}
