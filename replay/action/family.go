package action

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A family is the processes an exec action started: the command's process
// group, and every process that carries the action's mark in its
// environment. A command may leave processes outside its group (setsid, a
// daemon's double fork); the environment they inherit still marks them,
// so that an action never outlives its run. What scrubs its environment
// (env -i, a service manager starting the work) cannot be found: such
// processes are the command's to end.
//
// Members are found in /proc: elsewhere only the process group is.
type family struct {
	mark string
	pgid int // the command's process group; 0 until it started
}

// familyVar is the environment variable that marks an action's processes.
const familyVar = "JOINBENCH_ACTION"

// familyPoll is how often an action whose command exited looks whether
// the processes it left have ended.
const familyPoll = 200 * time.Millisecond

// procDir is where Linux lists processes.
const procDir = "/proc"

func newFamily() (*family, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("exec: mark for the command's processes: %w", err)
	}
	return &family{mark: hex.EncodeToString(b)}, nil
}

// env is the entry of the command's environment that marks its family.
func (f *family) env() string { return familyVar + "=" + f.mark }

// members are the pids of the family's processes that are alive (not
// zombies), the command's group included; nil where /proc is missing.
func (f *family) members() []int {
	entries, err := os.ReadDir(procDir)
	if err != nil {
		return nil
	}
	self := os.Getpid()
	want := []byte(f.env())
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		pgrp, state, ok := procStat(pid)
		if !ok || state == 'Z' {
			continue
		}
		if pgrp == f.pgid && f.pgid > 0 || hasEnv(pid, want) {
			out = append(out, pid)
		}
	}
	return out
}

// procStat reads a process's group and state from /proc/PID/stat.
func procStat(pid int) (pgrp int, state byte, ok bool) {
	b, err := os.ReadFile(filepath.Join(procDir, strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, 0, false
	}
	// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return pgrp, f[0][0], err == nil
}

// hasEnv reports whether the process's environment holds entry.
func hasEnv(pid int, entry []byte) bool {
	b, err := os.ReadFile(filepath.Join(procDir, strconv.Itoa(pid), "environ"))
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}

// alive reports whether any process of the family is left.
func (f *family) alive() bool {
	if _, err := os.Stat(procDir); err != nil {
		return f.pgid > 0 && syscall.Kill(-f.pgid, 0) == nil
	}
	return len(f.members()) > 0
}

// signal sends sig to the command's process group and to every member of
// the family.
func (f *family) signal(sig syscall.Signal) {
	if f.pgid > 0 {
		_ = syscall.Kill(-f.pgid, sig)
	}
	for _, pid := range f.members() {
		_ = syscall.Kill(pid, sig)
	}
}

// waitOut waits until the family has no process left (true), or ctx ends
// (false).
func (f *family) waitOut(ctx context.Context) bool {
	for f.alive() {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(familyPoll):
		}
	}
	return true
}
