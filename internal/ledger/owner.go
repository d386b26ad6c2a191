package ledger

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// Owner is a process, named so that it cannot be confused with a later
// one that got the same pid: its start time, in clock ticks since boot
// (field 22 of /proc/PID/stat), is part of its name. A server reached by
// its address may be reached from several machines: Host, the machine's
// name, says whether the process can be looked at from here at all.
type Owner struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
	// Host is the machine it ran on (empty in entries written before it
	// was noted: a sandbox's, always this machine's).
	Host string `json:"host,omitempty"`
}

// Self is this process.
func Self() Owner {
	o, _ := OwnerOf(os.Getpid())
	return o
}

// OwnerOf names the running process pid of this machine; an error when
// there is none.
func OwnerOf(pid int) (Owner, error) {
	start, err := startTime(pid)
	if err != nil {
		return Owner{}, err
	}
	return Owner{PID: pid, Start: start, Host: ThisHost()}, nil
}

// ThisHost is the name of this machine, as owners carry it.
func ThisHost() string {
	h, _ := os.Hostname()
	return h
}

// Here reports whether the process ran on this machine, where Alive can
// tell whether it still runs.
func (o Owner) Here() bool { return o.Host == "" || o.Host == ThisHost() }

// Alive reports whether the process still runs: a process with its pid
// exists, is no zombie, and started when it did. A process of another
// machine cannot be seen to be gone: it is taken as alive.
func (o Owner) Alive() bool {
	if !o.Here() {
		return true
	}
	if o.PID <= 0 {
		return false
	}
	start, err := startTime(o.PID)
	return err == nil && start == o.Start
}

func (o Owner) String() string {
	if o.Here() {
		return fmt.Sprintf("pid %d", o.PID)
	}
	return fmt.Sprintf("pid %d on %s", o.PID, o.Host)
}

// startTime reads a live process's start time from /proc/PID/stat; a
// zombie (it has exited, its parent has not reaped it) counts as gone.
func startTime(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// the fields after it are counted from its closing one.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (the state); field 22 is f[19].
	if len(f) < 20 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	if f[0][0] == 'Z' || f[0][0] == 'X' {
		return 0, fmt.Errorf("process %d has exited", pid)
	}
	return strconv.ParseUint(string(f[19]), 10, 64)
}
