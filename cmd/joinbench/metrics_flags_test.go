package main

import (
	"net"
	"os"
	"strings"
	"testing"
)

// TestMetricsAddrCheckedFirst: a malformed or taken --metrics-addr, or a
// negative --metrics-linger, is a usage error (exit 2, one line naming
// the flag) of run and ab, before any server is connected to or started
// and before any folder is made.
func TestMetricsAddrCheckedFirst(t *testing.T) {
	t.Setenv("JOINBENCH_DSN", "")
	t.Setenv("JOINBENCH_SERVER_BINARY", "/nonexistent/mariadbd")
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--metrics-addr", "9464"}, "--metrics-addr"},
		{[]string{"--metrics-addr", "127.0.0.1:port"}, "--metrics-addr"},
		{[]string{"--metrics-addr", taken.Addr().String()}, "--metrics-addr"},
		{[]string{"--metrics-addr", "127.0.0.1:0", "--metrics-linger=-1s"}, "--metrics-linger"},
	} {
		for _, cmd := range [][]string{
			{"run", "-q", "--out", out, "-s", "simple_inner_pk"},
			{"ab", "-q", "--out", out, "-s", "simple_inner_pk", "--base", "127.0.0.1:1", "--candidate", "127.0.0.1:2"},
		} {
			args := append(cmd, c.args...)
			code, _, stderr := runCapturedAll(t, args...)
			if code != 2 || !strings.Contains(stderr, c.flag) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("%s %v: exit %d, %q; want 2 and one line naming %s", cmd[0], c.args, code, stderr, c.flag)
			}
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a run folder was made: %v", entries)
	}
}
