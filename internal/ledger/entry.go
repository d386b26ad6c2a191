package ledger

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Entry is one change made, not yet undone.
type Entry struct {
	// ID names the entry in its ledger: a folder's file ID.json, a
	// table's row.
	ID string `json:"id"`
	// Kind says what was changed; the writer's package knows how to undo
	// each of its kinds.
	Kind string `json:"kind"`
	// Node is the server it is on (node1, ...), empty for the sandbox as
	// a whole or a single server.
	Node string `json:"node,omitempty"`
	// What says it in words, for status and messages: "node3 in cgroup
	// blkio/.../joinbench-slow-123, disk I/O limited".
	What string `json:"what"`
	// Undo is what undoing it needs: the value a variable had, the cgroup
	// the process came from.
	Undo  map[string]string `json:"undo,omitempty"`
	Owner Owner             `json:"owner"`
	// Command is the command line of the owner, to say who left it.
	Command string    `json:"command,omitempty"`
	Made    time.Time `json:"made"`
}

// Orphaned reports whether its owner is gone: nobody else will undo it.
// An owner on another machine cannot be checked from here: its entry is
// never orphaned (see Elsewhere).
func (e Entry) Orphaned() bool { return e.Owner.Here() && !e.Owner.Alive() }

// Elsewhere reports whether its owner ran on another machine, whose
// processes cannot be seen from here.
func (e Entry) Elsewhere() bool { return !e.Owner.Here() }

// stamped is e as Add writes it: a fresh ID, this process as its owner
// unless one is given, its command line and the time.
func (e Entry) stamped() Entry {
	var b [6]byte
	_, _ = rand.Read(b[:])
	e.ID = fmt.Sprintf("%s-%s-%s", time.Now().UTC().Format("20060102T150405"), e.Kind, hex.EncodeToString(b[:]))
	if e.Owner.PID == 0 {
		e.Owner = Self()
	}
	if e.Command == "" {
		e.Command = ownCommand()
	}
	e.Made = time.Now().UTC()
	return e
}

// dsnPassword is the password of a DSN (user:password@...), as an
// argument or a flag's value.
var dsnPassword = regexp.MustCompile(`(^|=)([^:@/=\s]*):[^@\s]*@`)

// ownCommand is this process's command line, to say who made a change:
// its passwords masked (a table ledger is on the server, readable by its
// users) and bounded.
func ownCommand() string {
	args := slices.Clone(os.Args)
	for i, a := range args {
		switch {
		case a == "--password" && i+1 < len(args):
			args[i+1] = "***"
		case strings.HasPrefix(a, "--password="):
			args[i] = "--password=***"
		default:
			args[i] = dsnPassword.ReplaceAllString(a, "$1$2:***@")
		}
	}
	c := strings.Join(args, " ")
	if len(c) > 300 {
		return c[:300] + "..."
	}
	return c
}
