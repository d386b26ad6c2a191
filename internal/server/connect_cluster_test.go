package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

// --sandbox NAME of a cluster with a stopped node refuses to run on part of
// the cluster, naming the node.
func TestConnectClusterWithAStoppedNode(t *testing.T) {
	home(t, "")
	root := t.TempDir()
	dir := filepath.Join(root, "g")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	state := `{"name": "g", "dir": "` + dir + `", "binary": {"path": "/usr/sbin/mariadbd", "flavor": "mariadb", "version": "10.11.6"},
	"nodes": [{"name": "node1", "datadir": "` + dir + `/node1/data", "port": 1, "pid": 0}]}`
	if err := os.WriteFile(filepath.Join(dir, "cluster.json"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Connect(context.Background(), Options{}, SandboxOptions{Name: "g", Dir: root}, nil)
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "node1 is not running") {
		t.Errorf("got %v", err)
	}
}
