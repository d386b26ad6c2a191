package sandbox

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A new cluster is seeded: node1's data is made once (initialised,
// bootstrapped, root and the database created), node1 is shut down
// cleanly, and each other node gets a copy of its data directory. node1
// bootstraps the cluster again from its data, and the others, holding the
// same data, join one at a time with no state transfer, each copy's
// grastate.dat giving the cluster's position (seededPosition). A full transfer per
// joiner (the other way, ClusterConfig.JoinByTransfer) costs each a
// mariabackup copy and the fixed wait of its script, about 10 s.
//
// What makes a node itself is not in the copy: its ports, server options
// and wsrep_node_name are in its own my.cnf; its Galera write-set cache
// and view (galera.cache, gvwstate.dat) are its own and made at its start.

// seedRedoLogSize is the redo log node1 runs with while its data is made,
// so that the copies carry a few megabytes of redo rather than the 1 GiB
// file every node runs with: MariaDB refuses a data directory without its
// ib_logfile0, and it resizes the log to innodb_log_file_size at the next
// start after a clean shutdown, a cheap allocation. 4M is MariaDB's
// smallest.
const seedRedoLogSize = "4M"

// notSeeded are the files of node1's data directory its copies leave out:
// the Galera write-set cache (galera.cache, 128 MiB, each node's own), its
// view of the last primary component (gvwstate.dat, which would make a
// node believe it was node1), its position (grastate.dat, written anew in
// each copy, not safe to bootstrap) and InnoDB's temporary tablespace
// (ibtmp1, recreated at every start).
var notSeeded = map[string]bool{
	"galera.cache": true,
	"gvwstate.dat": true,
	grastateFile:   true,
	"ibtmp1":       true,
}

// canSeed reports whether a new cluster can be seeded: it has nodes that
// join, the start did not ask for state transfers, and the joiners' data
// directories are empty (no leftover a copy would mix with).
func (c *Cluster) canSeed(cfg ClusterConfig) bool {
	if len(c.Nodes) < 2 || cfg.JoinByTransfer {
		return false
	}
	for _, n := range c.Nodes[1:] {
		entries, err := os.ReadDir(n.DataDir)
		if err != nil || len(entries) > 0 {
			return false
		}
	}
	return true
}

// startSeeded starts a new cluster by seeding its joiners with node1's
// data (see above). On an error, StartCluster stops the nodes it started.
func (c *Cluster) startSeeded(ctx context.Context, cfg ClusterConfig) error {
	boot, joiners := c.Nodes[0], c.Nodes[1:]
	fmt.Fprintf(c.log, "cluster %s is new: %s's data is made once and copied to %s, which join with no state transfer\n",
		c.Name, boot.Name, nodeNames(joiners))
	if err := boot.initialise(ctx); err != nil {
		return err
	}
	if err := c.startNode(ctx, boot, cfg, true, "--innodb-log-file-size="+seedRedoLogSize); err != nil {
		return fmt.Errorf("sandbox %s: bootstrapping %s: %w", c.Name, boot.Name, err)
	}
	if err := boot.setup(ctx, cfg.Database); err != nil {
		return fmt.Errorf("sandbox %s: %s: %w", c.Name, boot.Name, err)
	}
	if err := boot.Stop(ctx); err != nil {
		return fmt.Errorf("sandbox %s: %s: %w", c.Name, boot.Name, err)
	}
	g, ok, err := readGrastate(boot.DataDir)
	if err != nil {
		return fmt.Errorf("sandbox %s: %s: %w", c.Name, boot.Name, err)
	}
	if !ok || g.Seqno < 0 || !g.SafeToBootstrap {
		return fmt.Errorf("sandbox %s: %s did not save its Galera position at its shutdown (grastate.dat: %+v, log: %s)", c.Name, boot.Name, g, boot.ErrorLog)
	}
	copied := time.Now()
	for _, n := range joiners {
		if err := copyDataDir(boot.DataDir, n.DataDir); err != nil {
			return fmt.Errorf("sandbox %s: copy %s's data to %s: %w", c.Name, boot.Name, n.Name, err)
		}
	}
	seed := fmt.Sprintf("%s:%d", g.UUID, g.Seqno)
	fmt.Fprintf(c.log, "%s's data (position %s) copied to %s in %.1fs\n", boot.Name, seed, nodeNames(joiners), time.Since(copied).Seconds())
	if err := c.startNode(ctx, boot, cfg, true); err != nil {
		return fmt.Errorf("sandbox %s: bootstrapping %s: %w", c.Name, boot.Name, err)
	}
	c.StartedAt = time.Now().UTC()
	if err := c.saveState(); err != nil {
		return fmt.Errorf("sandbox %s: save state: %w", c.Name, err)
	}
	for _, n := range joiners {
		pos, atCluster, err := seededPosition(ctx, boot, g)
		if err != nil {
			return fmt.Errorf("sandbox %s: %w", c.Name, err)
		}
		if err := saveGrastate(n.DataDir, pos); err != nil {
			return fmt.Errorf("sandbox %s: %s: %w", c.Name, n.Name, err)
		}
		if atCluster {
			fmt.Fprintf(c.log, "%s: its copy stands at the cluster's position %s: only configuration changes came after %s\n", n.Name, pos, seed)
		} else {
			fmt.Fprintf(c.log, "%s: the cluster was written to since the copy: it joins at %s and receives what it misses\n", n.Name, pos)
		}
		if err := c.startNode(ctx, n, cfg, false); err != nil {
			return fmt.Errorf("sandbox %s: %s did not join the cluster: %w", c.Name, n.Name, err)
		}
		if err := c.saveState(); err != nil {
			return fmt.Errorf("sandbox %s: save state: %w", c.Name, err)
		}
	}
	return nil
}

// seededPosition is the Galera position (uuid:seqno) a copy of the seed's
// data, made at position seed, joins the cluster bootstrapped from it by
// boot with; cluster says whether it is the cluster's current position.
//
// Galera gives a seqno to every configuration change (boot's bootstrap,
// each join), and a joiner whose position is behind the one before its
// own join receives the gap by incremental transfer, which mariabackup's
// script makes a matter of seconds. A configuration change carries no
// data (each node records its view in mysql.wsrep_cluster itself), so a
// copy holds all the cluster's data at boot's last committed position as
// long as every seqno since the seed was a configuration change: there
// were wsrep_cluster_conf_id of them (the views since the bootstrap's, the
// first). The count is read before the position, so that a write-set
// committed meanwhile makes the two disagree. Then the copy keeps the
// seed's position and receives what it misses by incremental transfer.
func seededPosition(ctx context.Context, boot *Node, seed graState) (pos string, cluster bool, err error) {
	pos = fmt.Sprintf("%s:%d", seed.UUID, seed.Seqno)
	views, err := boot.status(ctx, "wsrep_local_state_uuid", "wsrep_cluster_conf_id")
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", boot.Name, err)
	}
	last, err := boot.status(ctx, "wsrep_last_committed")
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", boot.Name, err)
	}
	confID, err1 := strconv.ParseInt(views["wsrep_cluster_conf_id"], 10, 64)
	committed, err2 := strconv.ParseInt(last["wsrep_last_committed"], 10, 64)
	if err1 != nil || err2 != nil || views["wsrep_local_state_uuid"] != seed.UUID || committed != seed.Seqno+confID {
		return pos, false, nil
	}
	return fmt.Sprintf("%s:%d", seed.UUID, committed), true, nil
}

// copyDataDir copies a stopped server's data directory from into the
// empty directory to, but the files in notSeeded. The copy keeps each
// file's permissions; the kernel copies the bytes (copy_file_range).
func copyDataDir(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		if !strings.Contains(rel, string(filepath.Separator)) && notSeeded[rel] {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			if err := os.Mkdir(dst, info.Mode().Perm()); err != nil {
				return err
			}
			return os.Chmod(dst, info.Mode().Perm()) // whatever the umask
		case info.Mode().IsRegular():
			return copyFile(p, dst, info.Mode().Perm())
		}
		return fmt.Errorf("%s: neither a file nor a directory", p)
	})
}

func copyFile(from, to string, perm fs.FileMode) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Chmod(perm); err != nil { // whatever the umask
		dst.Close()
		return err
	}
	return dst.Close()
}
