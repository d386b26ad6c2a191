package main

import (
	"testing"

	"github.com/alecthomas/kong"
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
