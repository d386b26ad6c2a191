package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/testdb"
)

// --check-plans explains on the --dsn or --sandbox server; without one,
// or with both, or with a sandbox that does not exist, lint is a usage
// error.
func TestLintCheckPlansNeedsDSN(t *testing.T) {
	if code, _, errOut := runCapturedAll(t, "lint", "-q", "--check-plans"); code != 2 || !strings.Contains(errOut, "--dsn") {
		t.Fatalf("lint --check-plans without --dsn: exit %d, want 2 naming --dsn\n%s", code, errOut)
	}
	dir := t.TempDir()
	if code, _, errOut := runCapturedAll(t, "lint", "-q", "--check-plans", "--sandbox", "nosuch", "--sandbox-dir", dir); code != 2 || !strings.Contains(errOut, "no sandbox named") {
		t.Errorf("lint --sandbox of a sandbox that does not exist: exit %d, want 2\n%s", code, errOut)
	}
	if code, _, errOut := runCapturedAll(t, "lint", "-q", "--sandbox", "nosuch", "--sandbox-dir", dir, "--dsn", "root@tcp(127.0.0.1:1)/joinbench"); code != 2 || !strings.Contains(errOut, "give one") {
		t.Errorf("lint --sandbox with --dsn: exit %d, want 2\n%s", code, errOut)
	}
}

// TestLintCheckPlans lints a folder with --check-plans against a prepared
// database: the FORCE INDEX the plan does not follow is reported, in the
// JSON output, with the static findings; the one it follows is not.
func TestLintCheckPlans(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_lint_plans")
	db := testdb.Open(t, "cmd_lint_plans")
	if _, err := load.Prepare(context.Background(), db, load.PrepareOptions{
		Schema: ddl.SchemaOptions{Tables: 1}, Gen: ddl.GenOptions{Seed: 1, TableSize: 500}, Threads: 1,
	}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, index := range map[string]string{"unusable": "idx_record_status", "usable": "idx_parent_id"} {
		src := "-- scenario: " + name + "\n-- param m: table(main)\nSELECT m.id, level1.record_value\nFROM {{m}} AS m\n" +
			"JOIN level1 FORCE INDEX (" + index + ") ON level1.parent_id = m.id\nWHERE m.continent = 'Asia';\n"
		if err := os.WriteFile(filepath.Join(dir, name+".sql"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out := runCaptured(t, "lint", "-q", "--dsn", dsn, "--check-plans", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("lint --check-plans: exit %d\n%s", code, out)
	}
	var diags []struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Rule string `json:"rule"`
	}
	if err := json.Unmarshal([]byte(out), &diags); err != nil {
		t.Fatalf("lint --format json: %v\n%s", err, out)
	}
	found := 0
	for _, d := range diags {
		if !strings.HasPrefix(d.Rule, "plan-") {
			continue
		}
		found++
		if d.Rule != "plan-ignores-index-hint" || filepath.Base(d.Path) != "unusable.sql" || d.Line != 5 {
			t.Errorf("unexpected finding %+v", d)
		}
	}
	if found != 1 {
		t.Errorf("%d plan findings, want 1\n%s", found, out)
	}
}

// TestLintServerFlagsMatchConnFlags: lint's connection flags are those of
// every other command (conn.go), with the same help, defaults and
// environment, except that the flags naming a server read no environment
// (lint goes live only when its command line says so).
func TestLintServerFlagsMatchConnFlags(t *testing.T) {
	conn := reflect.TypeOf(connFlags{})
	lint := reflect.TypeOf(lintServerFlags{})
	naming := map[string]bool{"DSN": true, "Host": true, "Port": true, "Socket": true, "Sandbox": true}
	ownHelp := map[string]bool{"DSN": true, "Sandbox": true} // one server, not several
	shared := 0
	for _, lf := range reflect.VisibleFields(lint) {
		cf, ok := conn.FieldByName(lf.Name)
		if !ok || lf.Anonymous {
			continue
		}
		shared++
		if lf.Type != cf.Type && lf.Name != "DSN" {
			t.Errorf("--%s: lint's is %s, the other commands' %s", lf.Name, lf.Type, cf.Type)
		}
		for _, tag := range []string{"name", "help", "default", "type", "placeholder", "env"} {
			got, want := lf.Tag.Get(tag), cf.Tag.Get(tag)
			switch {
			case tag == "env" && naming[lf.Name]:
				want = ""
			case tag == "help" && ownHelp[lf.Name]:
				continue
			}
			if got != want {
				t.Errorf("%s's %s tag: lint has %q, the other commands %q", lf.Name, tag, got, want)
			}
		}
	}
	if shared < 15 {
		t.Errorf("lint shares %d connection flags with the other commands; want every one but the throwaway sandbox's", shared)
	}
}

// TestLintConnectsAsRunDoes: given the same flags and environment, lint
// and run resolve the same connection options, and both give up on a
// server that never answers after the connect timeout, with the same
// message.
func TestLintConnectsAsRunDoes(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	cnf := filepath.Join(t.TempDir(), "my.cnf")
	if err := os.WriteFile(cnf, []byte("[client]\nuser = reader\nport = 3307\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JOINBENCH_DEFAULTS_FILE", cnf)
	t.Setenv("JOINBENCH_PASSWORD", "pw")
	t.Setenv("JOINBENCH_DATABASE", "jb")
	t.Setenv("JOINBENCH_CONNECT_TIMEOUT", "3s")
	args := []string{"--host", "db1", "--ssl-mode", "DISABLED"}
	var lint struct {
		Lint lintCmd `cmd:""`
	}
	var probe connProbe
	for _, c := range []any{&lint, &probe} {
		p, err := kong.New(c, kong.Name("joinbench"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := "lint"
		if c == any(&probe) {
			cmd = "probe"
		}
		if _, err := p.Parse(append([]string{cmd}, args...)); err != nil {
			t.Fatal(err)
		}
	}
	got, want := lint.Lint.serverOptions(), probe.Probe.options()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lint resolves %+v, run %+v", got, want)
	}
	gotR, err := got.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if ep := gotR.Endpoints[0]; ep.Name != "db1:3307" || gotR.Database != "jb" {
		t.Errorf("lint's endpoint %s, database %s; want db1:3307 from the option file and jb from the environment", ep.Name, gotR.Database)
	}

	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close() // never accepted: the handshake never comes, as with a stopped server
	t.Setenv("JOINBENCH_CONNECT_TIMEOUT", "200ms")
	t.Setenv("JOINBENCH_PASSWORD", "") // a DSN carries its own
	dsn := "root@tcp(" + silent.Addr().String() + ")/joinbench"
	var msgs []string
	for _, args := range [][]string{
		{"lint", "-q", "--dsn", dsn},
		{"run", "-q", "--dsn", dsn, "-s", "simple_inner_pk", "--events", "1", "--out", t.TempDir()},
	} {
		code, _, stderr := runCapturedAll(t, args...)
		if code != 2 || !strings.Contains(stderr, "cannot connect to "+silent.Addr().String()) {
			t.Errorf("%s against a server that never answers: exit %d\n%s", args[0], code, stderr)
		}
		msgs = append(msgs, strings.TrimSpace(stderr))
	}
	if msgs[0] != msgs[1] {
		t.Errorf("lint says %q, run %q", msgs[0], msgs[1])
	}
}

// TestLintLiveFromOptionFile lints against a prepared database on the
// test server named by --host, the rest coming from an option file and
// the environment, as run would read them; the environment alone names
// no server for lint.
func TestLintLiveFromOptionFile(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_lint_cnf")
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if cfg.Net != "tcp" || err != nil {
		t.Skipf("the test server is not on TCP (%s)", cfg.Addr)
	}
	db := testdb.Open(t, "cmd_lint_cnf")
	if _, err := load.Prepare(context.Background(), db, load.PrepareOptions{
		Schema: ddl.SchemaOptions{Tables: 1}, Gen: ddl.GenOptions{Seed: 1, TableSize: 50}, Threads: 1, NoAnalyze: true,
	}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	cnf := filepath.Join(t.TempDir(), "my.cnf")
	opts := fmt.Sprintf("[client]\nport = %s\nuser = %s\n", port, cfg.User)
	if cfg.Passwd != "" {
		opts += "password = " + cfg.Passwd + "\n"
	}
	if err := os.WriteFile(cnf, []byte(opts), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JOINBENCH_DEFAULTS_FILE", cnf)
	t.Setenv("JOINBENCH_DATABASE", cfg.DBName)
	t.Setenv("JOINBENCH_PASSWORD", "")
	t.Setenv("MYSQL_PWD", "")
	code, out, errOut := runCapturedAll(t, "lint", "--host", host, "--format", "text", "--no-builtin", "--corpus", "../../corpus/scenarios/inner")
	if code != 0 {
		t.Fatalf("lint --host with the option file: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("JOINBENCH_DATABASE", cfg.DBName+"_none")
	if code, _, errOut := runCapturedAll(t, "lint", "-q", "--host", host); code != 2 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("lint of a database the server does not have: exit %d, want 2\n%s", code, errOut)
	}
	// Offline: JOINBENCH_DSN is run's, and JOINBENCH_HOST names nothing for lint.
	t.Setenv("JOINBENCH_DSN", "root@tcp(127.0.0.1:1)/joinbench")
	t.Setenv("JOINBENCH_HOST", "127.0.0.1")
	t.Setenv("JOINBENCH_PORT", "1")
	if code, out := runCaptured(t, "lint", "-q"); code != 0 {
		t.Errorf("lint with only the environment naming a server: exit %d, want 0 offline\n%s", code, out)
	}
}
