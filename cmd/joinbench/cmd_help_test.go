package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// docs/cli.md must be what the command line says about itself, so that the
// reference cannot drift from --help.
func TestCLIReferenceIsUpToDate(t *testing.T) {
	code, generated := runCaptured(t, "help", "--markdown")
	if code != 0 || !strings.HasPrefix(generated, "# joinbench command reference\n") {
		t.Fatalf("help --markdown: exit %d\n%s", code, generated)
	}
	path := filepath.Join("..", "..", "docs", "cli.md")
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `make docs` to generate it", err)
	}
	if string(committed) != generated {
		t.Fatalf("docs/cli.md is not what `joinbench help --markdown` prints: run `make docs` and commit the result (first difference at %s)",
			firstDifference(string(committed), generated))
	}
}

// firstDifference names the first line where two texts differ.
func firstDifference(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := range max(len(h), len(w)) {
		var hl, wl string
		if i < len(h) {
			hl = h[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if hl != wl {
			return "line " + strconv.Itoa(i+1) + "\n  file:      " + hl + "\n  generated: " + wl
		}
	}
	return "the end"
}

func TestHelpCommand(t *testing.T) {
	code, out := runCaptured(t, "help", "sandbox", "start")
	if code != 0 || !strings.HasPrefix(out, "Usage: joinbench sandbox start [flags]\n") || !strings.Contains(out, "--buffer-pool-size") {
		t.Errorf("help sandbox start: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "help")
	if code != 0 || !strings.Contains(out, "sandbox start") || strings.Contains(out, "  help ") {
		t.Errorf("help: exit %d, want the command list without the hidden help command\n%s", code, out)
	}
	code, out = runCaptured(t, "help", "compare", "--markdown")
	if code != 0 || !strings.HasPrefix(out, "## joinbench compare\n") || strings.Contains(out, "## joinbench run") {
		t.Errorf("help compare --markdown: exit %d, want only compare's section\n%s", code, out)
	}
	if code, _ := runCaptured(t, "help", "no-such-command"); code != 2 {
		t.Errorf("help no-such-command: exit %d, want 2", code)
	}
}
