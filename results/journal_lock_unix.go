//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package results

import (
	"errors"
	"os"
	"syscall"
)

// lockJournal marks a journal as being written: the writer holds an
// exclusive lock on it until it is closed, so that Recover, run by
// another process, leaves the journal of a running client alone.
func lockJournal(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// journalInUse reports whether another process holds f's lock. A file
// system without locks (some network ones) reports nothing in use.
func journalInUse(f *os.File) bool {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}

// lockRunDir waits for the lock of a run folder, which the conversions of
// its journals hold, and returns its release: two conversions of one
// journal at once (two reports started together, a report and the end of
// the run) would remove each other's files. The lock is on the folder
// itself, so that a folder that cannot be written takes it too. Where
// there is no lock (a file system without them), conversions are not
// kept apart.
func lockRunDir(dir string) (unlock func()) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}
