package main

import (
	"fmt"
	"os/exec"
	"testing"
)

// codedError is a command's chosen exit code, as lint and compare return.
type codedError int

func (c codedError) Error() string { return "" }
func (c codedError) ExitCode() int { return int(c) }

// A child process's exit status wrapped in a command's error is the
// child's, never joinbench's: a child killed by a signal (ExitCode -1,
// which os.Exit made 255) or one that exited 3 is a failure, 1. A
// command's own code still wins, but not one outside what a shell reads as
// a command's (0 to 125).
func TestExitCodeIgnoresChildStatus(t *testing.T) {
	killed := exec.Command("sh", "-c", "kill -9 $$").Run()
	three := exec.Command("sh", "-c", "exit 3").Run()
	if killed == nil || three == nil {
		t.Fatalf("the children did not fail: %v, %v", killed, three)
	}
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"child killed", fmt.Errorf("prepare: %w", killed), 1},
		{"child exit 3", fmt.Errorf("exec: %w", three), 1},
		{"command's own code", codedError(4), 4},
		{"a code a shell reads as a signal", codedError(255), 1},
		{"a negative code", codedError(-1), 1},
	} {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}
