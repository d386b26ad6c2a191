package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
)

// signalNames are the signals a child of joinbench is usually ended by
// (an operator's kill, the OOM killer, a crash), by their C names: what
// an operator greps the kernel's log and the tool's documentation for.
var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGILL: "SIGILL", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL", syscall.SIGSEGV: "SIGSEGV",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGTERM: "SIGTERM",
}

// signalName is SIGKILL for signal 9, its description where the table
// has no name for it.
func signalName(sig syscall.Signal) string {
	if n, ok := signalNames[sig]; ok {
		return n
	}
	return sig.String()
}

// childEnd says in words how a child process that failed ended: "was
// killed by signal 9 (SIGKILL)", "exited with status 3", or the error
// itself when it did not run. The result never wraps the
// *exec.ExitError: its ExitCode (-1 for a signal) must not become
// joinbench's own exit status.
func childEnd(err error) string {
	var xe *exec.ExitError
	if !errors.As(err, &xe) {
		return err.Error()
	}
	if ws, ok := xe.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		return fmt.Sprintf("was killed by signal %d (%s)", int(sig), signalName(sig))
	}
	return fmt.Sprintf("exited with status %d", xe.ExitCode())
}
