package sandbox

import "syscall"

// stopWithParent has the server shut down cleanly if this process dies
// without stopping it.
func stopWithParent(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGTERM
}
