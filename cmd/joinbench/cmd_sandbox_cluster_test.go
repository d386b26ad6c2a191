package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stopped cluster: status lists every node as stopped and exits 1; list
// shows the cluster; stop --keep keeps its directory; a single-server
// command on its name is a user error.
func TestSandboxStatusOfAStoppedCluster(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "g")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	state := `{"name": "g", "dir": "` + dir + `", "binary": {"path": "/usr/sbin/mariadbd", "flavor": "mariadb", "version": "10.11.6"},
	"provider": "/usr/lib/galera/libgalera_smm.so", "sst_method": "mariabackup",
	"nodes": [{"name": "node1", "datadir": "` + dir + `/node1/data", "port": 1001, "pid": 0},
	          {"name": "node2", "datadir": "` + dir + `/node2/data", "port": 1002, "pid": 0}]}`
	if err := os.WriteFile(filepath.Join(dir, "cluster.json"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runCaptured(t, "sandbox", "status", "--name", "g", "--sandbox-dir", root, "-q")
	if code != 1 || !strings.Contains(out, "Galera cluster, 2 nodes") || !strings.Contains(out, "node2  stopped") ||
		!strings.Contains(out, "127.0.0.1:1002") {
		t.Errorf("status: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "sandbox", "status", "--name", "g", "--sandbox-dir", root, "--json", "-q")
	var v clusterJSON
	if code != 1 || json.Unmarshal([]byte(out), &v) != nil || len(v.Nodes) != 2 || v.Nodes[1].Node != "node2" || v.Nodes[1].Running {
		t.Errorf("status --json: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "sandbox", "list", "--sandbox-dir", root)
	if code != 0 || !strings.Contains(out, "galera stopped") || !strings.Contains(out, "127.0.0.1:1001,127.0.0.1:1002") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	if code, _ := runCaptured(t, "sandbox", "start", "--name", "g", "--sandbox-dir", root, "--galera", "3", "--port", "5000", "-q"); code != 2 {
		t.Errorf("start --galera --port: exit %d, want 2", code)
	}
	if code, _ := runCaptured(t, "sandbox", "stop", "--name", "g", "--sandbox-dir", root, "--keep", "-q"); code != 0 {
		t.Errorf("stop --keep: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "cluster.json")); err != nil {
		t.Errorf("stop --keep removed the cluster: %v", err)
	}
}

// A node's own options are shown by status, in text and JSON; they are
// for clusters only, and for nodes the cluster has.
func TestSandboxNodeOptions(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "g")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	state := `{"name": "g", "dir": "` + dir + `", "binary": {"path": "/usr/sbin/mariadbd", "flavor": "mariadb", "version": "10.11.6"},
	"nodes": [{"name": "node1", "datadir": "` + dir + `/node1/data", "port": 1001, "pid": 0},
	          {"name": "node2", "datadir": "` + dir + `/node2/data", "port": 1002, "pid": 0,
	           "options": ["--innodb_flush_log_at_trx_commit=1", "--innodb-buffer-pool-size=64M"]}]}`
	if err := os.WriteFile(filepath.Join(dir, "cluster.json"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := runCaptured(t, "sandbox", "status", "--name", "g", "--sandbox-dir", root, "-q")
	for _, want := range []string{"OWN OPTION", "node2  innodb_flush_log_at_trx_commit=1", "node2  innodb-buffer-pool-size=64M"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	_, out = runCaptured(t, "sandbox", "status", "--name", "g", "--sandbox-dir", root, "--json", "-q")
	var v clusterJSON
	if json.Unmarshal([]byte(out), &v) != nil || len(v.Nodes) != 2 || len(v.Nodes[1].Options) != 2 || v.Nodes[0].Options != nil {
		t.Errorf("status --json:\n%s", out)
	}
	for _, args := range [][]string{
		{"--name", "one", "--node-option", "node1:x=1"},                // a single server
		{"--name", "g", "--galera", "2", "--node-option", "node3:x=1"}, // no node3
		{"--name", "g", "--galera", "2", "--node-option", "x=1"},       // no node
	} {
		code, _, stderr := runCapturedAll(t, append([]string{"sandbox", "start", "--sandbox-dir", root, "-q"}, args...)...)
		if code != 2 || !strings.Contains(stderr, "--node-option") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("sandbox start %v: exit %d, %q; want 2 and one line naming --node-option", args, code, stderr)
		}
	}
}
