//go:build e2e

package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/results"
)

// TestBehindHAProxy runs a write workload through HAProxy in front of a
// 3-node cluster sandbox, as a PXC operator deploys it (--dsn of the
// proxy, --sandbox of the cluster): the action runs on the node it names,
// every node's status and Galera state is read from the node itself,
// every row says which node served its connection, and the report splits
// the run by node.
func TestBehindHAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node cluster; skipped with -short")
	}
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		haproxy = "/usr/sbin/haproxy"
	}
	if _, err := os.Stat(haproxy); err != nil {
		testdb.Skipf(t, "haproxy not found (scripts/install-deps.sh galera installs it)")
	}
	needGalera(t)
	dir := t.TempDir()
	sbDir := filepath.Join(dir, "sandboxes")
	dsns := startCluster(t, "hp", sbDir, "128M")
	var nodeAddrs []string
	for _, dsn := range dsns {
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			t.Fatal(err)
		}
		nodeAddrs = append(nodeAddrs, cfg.Addr)
	}
	proxy := startHAProxy(t, haproxy, dir, nodeAddrs)
	proxyDSN := "root@tcp(" + proxy + ")/joinbench"

	db, err := sql.Open("mysql", dsns[0])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE w (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO w SELECT seq, 0 FROM seq_1_to_1000"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "w_update.sql"), []byte(writeScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	resDir := filepath.Join(dir, "results")
	code, out := runCaptured(t, "run", "--sandbox", "hp", "--sandbox-dir", sbDir, "--dsn", proxyDSN, "--corpus", corpus, "--no-builtin",
		"-s", "w_update", "-t", "6", "--time", "10s", "--explain", "off", "--out", resDir, "--run-id", "proxy", "--json", "-q",
		"--action", "3s@node2: pause 1s")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	run := filepath.Join(resDir, "run=proxy")
	fail := func(err error) { t.Error(err) }
	info := results.ReadRunInfo(run, fail)
	if info == nil || !slices.Equal(info.Endpoints, []string{proxy}) || len(info.Nodes) != 3 {
		t.Fatalf("run.json: %+v", info)
	}
	for i, n := range info.Nodes {
		if n.Name != fmt.Sprintf("node%d", i+1) || n.Endpoint != nodeAddrs[i] {
			t.Errorf("run.json node %d: %+v, want node%d at %s", i+1, n, i+1, nodeAddrs[i])
		}
	}
	actions, err := results.ReadActions(run, fail)
	if err != nil || len(actions) != 1 {
		t.Fatalf("actions.parquet: %+v, %v", actions, err)
	}
	if a := actions[0]; a.Node != "node2" || a.Endpoint != nodeAddrs[1] || a.Outcome != results.ActionOK {
		t.Errorf("the pause ran as %+v, want on node2 (%s)", a, nodeAddrs[1])
	}
	// Status comes from each node, never through the proxy.
	states := map[string]string{}
	err = results.ScanStatus(run, fail, func(s *results.Status) error {
		if s.Endpoint == proxy {
			t.Errorf("status read through the proxy: %+v", s)
		}
		if s.Variable == "wsrep_local_state_comment" {
			states[s.Endpoint] = s.Value
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range nodeAddrs {
		if states[addr] != "Synced" {
			t.Errorf("the last state sampled of %s is %q, want Synced (every node's: %v)", addr, states[addr], states)
		}
	}
	served := map[string]int{}
	if _, err := results.ScanExecutions(run, fail, func(e *results.Execution) error {
		if e.Endpoint != proxy {
			t.Errorf("row on endpoint %s, want the proxy's", e.Endpoint)
		}
		served[e.Node]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(served) < 2 || served[""] > 0 {
		t.Errorf("the nodes that served the rows: %v, want two of node1..node3 at least (the proxy balances)", served)
	}
	code, out = runCaptured(t, "report", run, "--format", "json")
	var rep struct {
		Runs []struct {
			Nodes []struct {
				Node       string `json:"node"`
				Executions int64  `json:"executions"`
			} `json:"nodes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Runs) != 1 {
		t.Fatalf("report: exit %d, %v\n%s", code, err, out)
	}
	for _, n := range rep.Runs[0].Nodes {
		if int(n.Executions) != served[n.Node] {
			t.Errorf("report: %s served %d executions, the rows say %d", n.Node, n.Executions, served[n.Node])
		}
	}
	if len(rep.Runs[0].Nodes) != len(served) {
		t.Errorf("report's nodes %+v, rows %v", rep.Runs[0].Nodes, served)
	}
}

// startHAProxy starts haproxy in the foreground, balancing TCP connections
// on a free port of 127.0.0.1 over backends, and returns its address once
// it accepts connections; it is stopped when the test ends.
func startHAProxy(t *testing.T, bin, dir string, backends []string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cfg := "global\n  maxconn 500\ndefaults\n  mode tcp\n  timeout connect 5s\n  timeout client 2m\n  timeout server 2m\n" +
		"listen galera\n  bind " + addr + "\n  balance roundrobin\n"
	for i, b := range backends {
		cfg += fmt.Sprintf("  server node%d %s check inter 500ms fall 2 rise 2\n", i+1, b)
	}
	path := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-f", path, "-db")
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy does not accept connections on %s: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
