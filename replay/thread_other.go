//go:build !linux

package replay

import "time"

// setTimerSlack does nothing where the kernel has no per-thread timer
// slack (macOS): the binary builds there, and paced runs are measured on
// Linux.
func setTimerSlack(uintptr) {}

// sleepThread falls back to Go's timer where there is no nanosleep in the
// syscall package.
func sleepThread(d time.Duration) { time.Sleep(d) }
