package sandbox

import (
	"context"
	"database/sql"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

// serverBinary skips the test when no server binary is installed.
func serverBinary(t *testing.T) *Binary {
	t.Helper()
	if testing.Short() {
		t.Skip("starts servers; skipped with -short")
	}
	b, err := FindBinary(context.Background(), os.Getenv("JOINBENCH_SERVER_BINARY"))
	if err != nil {
		testdb.Skipf(t, "no server binary (%v): install one with '%s' to run this test", err, InstallHint)
	}
	return b
}

func query(t *testing.T, dsn, q string) string {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

// TestNamedSideBySide starts two named sandboxes at once, checks each
// answers on its own port with the benchmark settings, restarts one on its
// kept data, and stops both.
func TestNamedSideBySide(t *testing.T) {
	b := serverBinary(t)
	ctx := context.Background()
	root := t.TempDir()
	var servers []*Server
	for _, name := range []string{"a", "b"} {
		s, running, err := StartNamed(ctx, root, name, Config{Binary: b, Database: "jb", BufferPoolSize: "64M", Log: testLog{t}})
		if err != nil {
			t.Fatal(err)
		}
		if running {
			t.Errorf("%s: reported as already running", name)
		}
		servers = append(servers, s)
		t.Cleanup(func() { _ = s.Stop(ctx) })
	}
	if servers[0].Port == servers[1].Port || servers[0].Port == 3306 {
		t.Errorf("ports %d and %d", servers[0].Port, servers[1].Port)
	}
	for _, s := range servers {
		dsn := s.DSN("jb")
		if got := query(t, dsn, "SELECT @@innodb_flush_log_at_trx_commit"); got != "2" {
			t.Errorf("innodb_flush_log_at_trx_commit = %s", got)
		}
		if got := query(t, dsn, "SELECT @@local_infile"); got != "1" {
			t.Errorf("local_infile = %s", got)
		}
		if got := query(t, dsn, "SELECT DATABASE()"); got != "jb" {
			t.Errorf("database = %s", got)
		}
	}
	list, err := List(root)
	if err != nil || len(list) != 2 || list[0].Name != "a" || !list[1].Servers[0].Running() {
		t.Fatalf("List = %v, %v", list, err)
	}

	// Starting a running sandbox returns it.
	again, running, err := StartNamed(ctx, root, "a", Config{Binary: b})
	if err != nil || !running || again.Port != servers[0].Port {
		t.Errorf("restart of running a: %v running=%v port %d", err, running, again.Port)
	}

	// Stop a from its state only, as "joinbench sandbox stop" does, then
	// start it again on the kept data: a table made before survives.
	query(t, servers[0].DSN("jb"), "SELECT 'x' FROM (SELECT 1) t WHERE (SELECT COUNT(*) FROM information_schema.tables) > 0")
	db, _ := sql.Open("mysql", servers[0].DSN("jb"))
	if _, err := db.Exec("CREATE TABLE kept (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	a, err := Lookup(root, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if a.Running() {
		t.Fatal("a still running after Stop")
	}
	a, _, err = StartNamed(ctx, root, "a", Config{Binary: b, BufferPoolSize: "64M"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Stop(ctx) })
	if got := query(t, a.DSN("jb"), "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema='jb' AND table_name='kept'"); got != "1" {
		t.Errorf("table kept across restart: %s", got)
	}
	for _, s := range []*Server{a, servers[1]} {
		if err := s.Stop(ctx); err != nil {
			t.Error(err)
		}
		if err := s.Remove(); err != nil {
			t.Error(err)
		}
	}
	if list, _ := List(root); len(list) != 0 {
		t.Errorf("after remove: %v", list)
	}
}

// TestThrowawayPortInUse asks for a port that is taken: a one-line user
// error before anything is initialised.
func TestThrowawayPortInUse(t *testing.T) {
	b := fakeServer(t, true)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	l, err := listen(port)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = Start(context.Background(), Config{Binary: b, Port: port})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("got %v, want a usage error saying the port is in use", err)
	}
}

// fakeServer writes a script that claims to be MySQL 8.0 and behaves as
// told for --initialize-insecure and for start-up.
func fakeServer(t *testing.T, initOK bool) *Binary {
	dir := t.TempDir()
	p := filepath.Join(dir, "mysqld")
	init := `echo "2024-01-01T00:00:00Z 0 [ERROR] [MY-010457] [Server] --initialize specified but the data directory has files in it. Aborting." >&2; exit 1`
	if initOK {
		init = `for a; do case $a in --datadir=*) mkdir -p "${a#--datadir=}/mysql";; esac; done; exit 0`
	}
	script := `#!/bin/sh
case "$*" in
*--version*) echo "mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)"; exit 0;;
*--initialize-insecure*) ` + init + `;;
esac
echo "2024-01-01T00:00:00Z 0 [ERROR] [MY-000067] [Server] unknown variable 'bogus=1'." >&2
echo "2024-01-01T00:00:00Z 0 [ERROR] [MY-010119] [Server] Aborting" >&2
exit 1
`
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := FindBinary(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInitFailure(t *testing.T) {
	b := fakeServer(t, false)
	dir := t.TempDir()
	_, err := Start(context.Background(), Config{Binary: b, Dir: dir})
	if err == nil || !usage.Is(err) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "has files in it") {
		t.Fatalf("got %v, want a one-line usage error quoting the server", err)
	}
}

func TestStartFailure(t *testing.T) {
	b := fakeServer(t, true)
	_, err := Start(context.Background(), Config{Binary: b})
	if err == nil || !usage.Is(err) || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "exited during start-up: [ERROR] [MY-000067] [Server] unknown variable 'bogus=1'.; [ERROR] [MY-010119]") {
		t.Fatalf("got %v, want a one-line usage error with the log's errors", err)
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func listen(port int) (net.Listener, error) {
	return net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
}

// TestNamedStartFailureLeavesNothing: a named sandbox that fails to start
// for the first time leaves no directory behind (list would not show it,
// stop could not remove it); one that was kept keeps its data.
func TestNamedStartFailureLeavesNothing(t *testing.T) {
	root := t.TempDir()
	for _, initOK := range []bool{false, true} {
		_, _, err := StartNamed(context.Background(), root, "broken", Config{Binary: fakeServer(t, initOK)})
		if err == nil {
			t.Fatal("the fake server started")
		}
		if _, statErr := os.Stat(filepath.Join(root, "broken")); !os.IsNotExist(statErr) {
			t.Errorf("init ok %v: failed start (%v) left its directory: %v", initOK, err, statErr)
		}
	}

	// A kept sandbox (state saved by an earlier start) that fails keeps it.
	kept := filepath.Join(root, "kept")
	s := &Server{Name: "kept", Dir: kept, Binary: *fakeServer(t, true)}
	if err := os.MkdirAll(filepath.Join(kept, "data", "mysql"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.saveState(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := StartNamed(context.Background(), root, "kept", Config{Binary: &s.Binary}); err == nil {
		t.Fatal("the fake server started")
	}
	if _, err := os.Stat(filepath.Join(kept, "data", "mysql")); err != nil {
		t.Errorf("a kept sandbox lost its data after a failed start: %v", err)
	}
}
