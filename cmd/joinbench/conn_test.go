package main

import (
	"database/sql"
	"net"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
)

type connProbe struct {
	Probe struct {
		connFlags `embed:""`
	} `cmd:""`
}

func parseConn(t *testing.T, args ...string) *connFlags {
	t.Helper()
	var c connProbe
	p, err := kong.New(&c, kong.Name("joinbench"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Parse(append([]string{"probe"}, args...)); err != nil {
		t.Fatal(err)
	}
	return &c.Probe.connFlags
}

func TestConnFlagsFlagBeatsEnv(t *testing.T) {
	t.Setenv("JOINBENCH_HOST", "envhost")
	t.Setenv("JOINBENCH_PORT", "3310")
	t.Setenv("JOINBENCH_PASSWORD", "")
	t.Setenv("MYSQL_PWD", "")
	c := parseConn(t, "--host", "flaghost", "--dsn", "a@tcp(x:1)/", "--dsn", "b@tcp(y:2)/")
	if c.Host != "flaghost" || c.Port != 3310 {
		t.Errorf("host %q port %d, want flaghost 3310", c.Host, c.Port)
	}
	if len(c.DSN) != 2 {
		t.Errorf("dsn %q, want two", c.DSN)
	}
	if c.BufferPoolSize != "1G" || c.ConnectTimeout.Seconds() != 10 {
		t.Errorf("defaults: %q %v", c.BufferPoolSize, c.ConnectTimeout)
	}
}

func TestSandboxBadBinaryExitsTwo(t *testing.T) {
	dir := t.TempDir()
	if code := run([]string{"sandbox", "start", "--name", "x", "--sandbox-dir", dir, "--server-binary", dir + "/nope"}); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	if code := run([]string{"sandbox", "stop", "--name", "never", "--sandbox-dir", dir}); code != 2 {
		t.Errorf("stop of an unknown sandbox: exit code %d, want 2", code)
	}
	if code := run([]string{"sandbox", "list", "--sandbox-dir", dir}); code != 0 {
		t.Errorf("list: exit code %d, want 0", code)
	}
}

// TestUserNameWithColon: a real user whose name holds ':' prepares and runs
// (its name is not cut at the colon on the way to the driver).
func TestUserNameWithColon(t *testing.T) {
	dsn := testdb.Fresh(t, "cmd_colon_user")
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	const user, password = "jbtest:colon", "pw:1@x"
	drop := func() { _, _ = admin.Exec("DROP USER IF EXISTS 'jbtest:colon'@'%'") }
	drop()
	t.Cleanup(drop)
	for _, q := range []string{
		"CREATE USER 'jbtest:colon'@'%' IDENTIFIED BY '" + password + "'",
		"GRANT ALL ON `" + cfg.DBName + "`.* TO 'jbtest:colon'@'%'",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		t.Skipf("the test server is not on TCP (%s)", cfg.Addr)
	}
	conn := []string{"--no-defaults", "--host", host, "--port", port, "--user", user, "--password", password, "--database", cfg.DBName}
	if code, _, stderr := runCapturedAll(t, append([]string{"-q", "prepare", "--table-size", "100"}, conn...)...); code != 0 {
		t.Fatalf("prepare as %s: exit %d\n%s", user, code, stderr)
	}
	out := t.TempDir()
	args := append([]string{"-q", "run", "--table-size", "100", "-s", "simple_inner_pk", "--events", "3", "--out", out, "--json"}, conn...)
	if code, stdout, stderr := runCapturedAll(t, args...); code != 0 || !strings.Contains(stdout, `"executions": 3`) {
		t.Fatalf("run as %s: exit %d\n%s\n%s", user, code, stdout, stderr)
	}
}

// --buffer-pool-size defaults to 1G for a throwaway sandbox, but only a
// value given (flag or environment) resizes a named sandbox's servers.
func TestBufferPoolGivenOrDefaulted(t *testing.T) {
	if c := parseConn(t); c.BufferPoolSize != "1G" || c.bufferPoolGiven {
		t.Errorf("defaulted: %q, given %v", c.BufferPoolSize, c.bufferPoolGiven)
	}
	if c := parseConn(t, "--buffer-pool-size", "16M"); c.BufferPoolSize != "16M" || !c.bufferPoolGiven {
		t.Errorf("flag: %q, given %v", c.BufferPoolSize, c.bufferPoolGiven)
	}
	t.Setenv("JOINBENCH_BUFFER_POOL_SIZE", "64M")
	if c := parseConn(t); c.BufferPoolSize != "64M" || !c.bufferPoolGiven {
		t.Errorf("environment: %q, given %v", c.BufferPoolSize, c.bufferPoolGiven)
	}
}
