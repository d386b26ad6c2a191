package replay

import (
	"syscall"
	"time"
)

// setTimerSlack sets how late (in ns) the kernel may end the calling
// thread's sleeps, 0 for the default; an error leaves the default.
func setTimerSlack(ns uintptr) {
	const prSetTimerSlack = 29 // PR_SET_TIMERSLACK
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerSlack, ns, 0)
}

// sleepThread sleeps the calling thread in the kernel, not on a Go timer;
// a signal may end it early.
func sleepThread(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	_ = syscall.Nanosleep(&ts, nil)
}
