//go:build !linux

package sandbox

import "syscall"

// stopWithParent does nothing where the kernel cannot signal a child when
// its parent dies (macOS): the binary builds there, and a sandbox left by
// a killed joinbench is stopped with sandbox stop.
func stopWithParent(*syscall.SysProcAttr) {}
