package main

import (
	"strings"
	"testing"
	"time"
)

// A duration without a unit is seconds, on every duration flag and its
// environment variable.
func TestDurationWithoutUnitIsSeconds(t *testing.T) {
	t.Setenv("JOINBENCH_CONNECT_TIMEOUT", "7")
	var c cli
	parser, err := newParser(&c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"run", "--time", "10", "--warmup", "1.5", "--query-timeout", "250ms", "--report-interval", "2m"}); err != nil {
		t.Fatal(err)
	}
	r := c.Run
	if r.Time != 10*time.Second || r.Warmup != 1500*time.Millisecond || r.QueryTimeout != 250*time.Millisecond ||
		r.ReportInterval != 2*time.Minute || r.ConnectTimeout != 7*time.Second {
		t.Errorf("--time 10 --warmup 1.5 --query-timeout 250ms --report-interval 2m, JOINBENCH_CONNECT_TIMEOUT=7: %v %v %v %v %v",
			r.Time, r.Warmup, r.QueryTimeout, r.ReportInterval, r.ConnectTimeout)
	}
	for _, bad := range []string{"10x", "1e3", "ten"} {
		code, _, stderr := runCapturedAll(t, "run", "--time", bad)
		if code != 2 || !strings.Contains(stderr, "--time") || !strings.Contains(stderr, "10s") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("--time %s: exit %d, %q; want 2 and one line naming the flag and the way to write it", bad, code, stderr)
		}
	}
}
