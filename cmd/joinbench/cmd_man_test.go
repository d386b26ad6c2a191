package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
)

// docs/joinbench.1 must be what joinbench man prints, as docs/cli.md must
// be what help --markdown prints.
func TestManPageIsUpToDate(t *testing.T) {
	code, generated := runCaptured(t, "man")
	if code != 0 || !strings.HasPrefix(generated, ".TH JOINBENCH 1 ") {
		t.Fatalf("man: exit %d\n%.300s", code, generated)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "docs", "joinbench.1"))
	if err != nil {
		t.Fatalf("%v: run `make docs` to generate it", err)
	}
	if string(committed) != generated {
		t.Fatalf("docs/joinbench.1 is not what `joinbench man` prints: run `make docs` and commit the result (first difference at %s)",
			firstDifference(string(committed), generated))
	}
}

// The page renders with man, without a warning from groff, and shows
// every command.
func TestManPageRenders(t *testing.T) {
	if _, err := exec.LookPath("man"); err != nil {
		testdb.Skipf(t, "man: %v (scripts/install-deps.sh man installs man-db)", err)
	}
	page := filepath.Join(t.TempDir(), "joinbench.1")
	_, generated := runCaptured(t, "man")
	if err := os.WriteFile(page, []byte(generated), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("man", "--warnings", "-l", page)
	cmd.Env = append(os.Environ(), "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100", "LC_ALL=C.UTF-8")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("man -l: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"joinbench - finds join performance regressions in MySQL-family servers",
		"COMMANDS", "GLOBAL FLAGS", "SHARED FLAGS", "ENVIRONMENT", "EXIT STATUS",
		"joinbench sandbox start [flags]", "--buffer-pool-size=", "JOINBENCH_DSN",
		"joinbench completion <shell>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	if strings.Contains(out, "__complete") {
		t.Error("the rendered page shows the hidden __complete command")
	}
}
