package sandbox

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestOptionFile(t *testing.T) {
	got := optionFile([]string{"--skip-log-bin", "--port=3307", "--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:1;ist.recv_addr=127.0.0.1:2", "--init-connect=SET @a = '#x'"})
	for _, want := range []string{
		"[mysqld]\n",
		"\nskip-log-bin\n",
		"\nport=3307\n",
		"\nwsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:1;ist.recv_addr=127.0.0.1:2\n",
		"\ninit-connect=\"SET @a = '#x'\"\n", // '#' would start a comment
		"\n[sst]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("option file lacks %q:\n%s", want, got)
		}
	}
}

// Every node lists every member, and its own ports are its own.
func TestNodeOptions(t *testing.T) {
	c := fakeCluster(t, 3)
	c.Binary = Binary{Path: "/usr/sbin/mariadbd", Flavor: "mariadb", Version: "10.11.6"}
	c.Provider = "/usr/lib/galera/libgalera_smm.so"
	for i, n := range c.Nodes {
		n.Binary = c.Binary
		n.Port, n.GroupPort, n.ISTPort, n.SSTPort = 10000+i, 11000+i, 12000+i, 13000+i
	}
	opts := strings.Join(c.nodeOptions(c.Nodes[1], "64M", []string{"--max-connections=10"}), " ")
	for _, want := range []string{
		"--wsrep-cluster-address=gcomm://127.0.0.1:11000,127.0.0.1:11001,127.0.0.1:11002",
		"--wsrep-node-name=node2", "--port=10001", "--wsrep-node-address=127.0.0.1:11001",
		"gmcast.listen_addr=tcp://127.0.0.1:11001;ist.recv_addr=127.0.0.1:12001",
		"--wsrep-sst-receive-address=127.0.0.1:13001", "--wsrep-sst-method=mariabackup",
		"--binlog-format=ROW", "--innodb-autoinc-lock-mode=2", "--innodb-buffer-pool-size=64M",
		"--wsrep-cluster-name=g", "--wsrep-provider=/usr/lib/galera/libgalera_smm.so",
		"--max-connections=10",
	} {
		if !strings.Contains(opts, want) {
			t.Errorf("node2's options lack %s:\n%s", want, opts)
		}
	}
	if strings.Index(opts, "--max-connections=2000") > strings.Index(opts, "--max-connections=10") {
		t.Error("a server argument given by the user does not come last")
	}
}

func TestGaleraNeedsMariaDB(t *testing.T) {
	b := fakeServer(t, true) // claims to be MySQL 8.0
	_, err := galeraNeeds(b, "")
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "needs MariaDB") {
		t.Fatalf("got %v", err)
	}
	mdb := *b
	mdb.Flavor = "mariadb"
	_, err = galeraNeeds(&mdb, filepath.Join(t.TempDir(), "libgalera_smm.so"))
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "--galera-provider") {
		t.Fatalf("a missing --galera-provider: got %v", err)
	}
}

// A kept cluster started with another size, or a single server's name,
// is a one-line user error before anything starts.
func TestStartClusterRefusals(t *testing.T) {
	root := t.TempDir()
	b := fakeServer(t, true)
	b.Flavor = "mariadb"
	c := fakeCluster(t, 3)
	c.Dir = filepath.Join(root, "g")
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.saveState(); err != nil {
		t.Fatal(err)
	}
	_, _, err := StartCluster(context.Background(), root, "g", ClusterConfig{Config: Config{Binary: b}, Nodes: 5})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "cluster of 3 nodes, not 5") {
		t.Errorf("another size: got %v", err)
	}
	if _, err := Lookup(root, "g"); err == nil || !strings.Contains(err.Error(), "is a Galera cluster") {
		t.Errorf("Lookup of a cluster as a server: got %v", err)
	}

	s := &Server{Name: "single", Dir: filepath.Join(root, "single"), Binary: *b, log: io.Discard}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.saveState(); err != nil {
		t.Fatal(err)
	}
	_, _, err = StartCluster(context.Background(), root, "single", ClusterConfig{Config: Config{Binary: b}, Nodes: 3})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "is a single server") {
		t.Errorf("a single server's name: got %v", err)
	}
	_, _, err = StartCluster(context.Background(), root, "new", ClusterConfig{Config: Config{Binary: b}, Nodes: MaxNodes + 1})
	if err == nil || !usage.Is(err) {
		t.Errorf("%d nodes: got %v", MaxNodes+1, err)
	}
}

// A Galera failure logs the state transfer script's command line (every
// option, kilobytes) on [ERROR] lines: the one-line error keeps the
// script's own lines instead.
func TestErrorLinesSkipTheSSTCommand(t *testing.T) {
	tail := `2026-12-01  2:42:38 0 [ERROR] WSREP: Failed to read from: wsrep_sst_mariabackup --role 'donor' --mysqld-args ` + strings.Repeat("--opt=x ", 500) + `
WSREP_SST: [ERROR] mariadb-backup finished with error: 7. Check syslog (20261201 02:46:04.633)
2026-12-01  2:42:38 0 [ERROR] WSREP: Process completed with error: wsrep_sst_mariabackup --role 'donor' --mysqld-args --port=1
2026-12-01  3:20:44 0 [ERROR] WSREP: Failed to read 'ready <addr>' (got '(null)') from: wsrep_sst_bogus --role 'joiner' --mysqld-args --port=1
`
	got := errorLines(tail)
	if strings.Contains(got, "Failed to read") || strings.Contains(got, "Process completed") || !strings.Contains(got, "mariadb-backup finished with error: 7") || len(got) > 400 {
		t.Errorf("got %q", got)
	}
}
