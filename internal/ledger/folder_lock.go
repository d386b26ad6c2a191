package ledger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

// lockFile is the file in a ledger's folder that a repair holds with
// flock(2): the kernel lets it go when its holder dies, however it dies,
// so a killed repair never leaves the next one waiting. Its content names
// the holder, for the message of the one that waits.
const lockFile = "lock"

// lockPoll is how often a waiting repair tries the lock again.
const lockPoll = 100 * time.Millisecond

// lockQuiet is how long a repair waits for the lock before it says so.
const lockQuiet = time.Second

// Lock holds the folder's lock file (flock, exclusive). Each call opens
// the file anew, so two goroutines of one process exclude each other too.
func (l *Folder) Lock(ctx context.Context, wait time.Duration, log io.Writer) (func(), error) {
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	p := filepath.Join(l.dir, lockFile)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	start := time.Now()
	deadline := start.Add(wait)
	said := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("ledger: lock %s: %w", p, err)
		}
		holder := lockHolder(p)
		// Said once the wait is noticeable: two connections of one
		// command to one sandbox (ab with the same server on both sides)
		// meet here for the moment the first takes to find nothing.
		if !said && log != nil && time.Since(start) >= lockQuiet {
			fmt.Fprintf(log, "waiting up to %s for %s, repairing what a killed joinbench left (%s)\n", wait, holder, l.dir)
			said = true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			f.Close()
			return nil, usage.Errorf("%s is still repairing what a killed joinbench left (lock %s held): run the command again once it is done", holder, p)
		}
		time.Sleep(lockPoll)
	}
	// The holder is named for whoever waits: this process, its command.
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(fmt.Sprintf("pid %d: %s\n", os.Getpid(), ownCommand())), 0)
	return func() {
		_ = f.Truncate(0)
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// lockHolder names the process holding the lock file p, as it wrote it.
func lockHolder(p string) string {
	b, _ := os.ReadFile(p)
	if h := string(bytes.TrimSpace(b)); h != "" {
		return "another joinbench (" + h + ")"
	}
	return "another joinbench"
}
