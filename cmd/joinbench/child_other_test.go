//go:build !linux

package main

import "os/exec"

// dieWithTest: only Linux can have a child killed with its parent.
func dieWithTest(cmd *exec.Cmd) {}
