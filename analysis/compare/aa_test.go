package compare

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

func TestAANote(t *testing.T) {
	run := func(ep, host, version string) *results.Run {
		return &results.Run{Endpoints: []string{ep}, ClientHost: host, ServerVersion: version}
	}
	if n := AANote(run("127.0.0.1:3306", "h", "10.11.6"), run("127.0.0.1:3306", "h", "10.11.6")); !strings.Contains(n, "the same server (127.0.0.1:3306): an A/A comparison") {
		t.Errorf("one server: %q", n)
	}
	for name, cand := range map[string]*results.Run{
		"another port":    run("127.0.0.1:3307", "h", "10.11.6"),
		"another client":  run("127.0.0.1:3306", "other", "10.11.6"),
		"another version": run("127.0.0.1:3306", "h", "11.4.2"),
	} {
		if n := AANote(run("127.0.0.1:3306", "h", "10.11.6"), cand); n != "" {
			t.Errorf("%s: %q", name, n)
		}
	}
}
