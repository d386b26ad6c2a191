package main

import (
	"os/exec"
	"syscall"
)

// dieWithTest has cmd killed when the test binary ends, also when it is
// killed (a timeout, an interrupted run) before its cleanups.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
