package ledger

import (
	"context"
	"io"
	"time"
)

// Ledger is where changes are noted before they are made: a sandbox's
// folder (Folder) or a table on the server itself (Table), for a server
// joinbench reaches only by its address.
type Ledger interface {
	// Add writes e, owned by this process unless e names an owner,
	// before the change it describes is made. done removes it: call it
	// once the change is undone (calling it twice is harmless).
	Add(e Entry) (done func() error, err error)
	// Remove deletes the entry id: its change is undone.
	Remove(id string) error
	// Entries are every entry in it, oldest first.
	Entries() ([]Entry, error)
	// Lock holds the ledger for one repair at a time, so that two
	// commands starting together do not both undo one leftover. When
	// another holds it, it says so on log and waits up to wait; then it
	// is a user error naming the holder. unlock lets it go.
	Lock(ctx context.Context, wait time.Duration, log io.Writer) (unlock func(), err error)
	// Where names it in messages.
	Where() string
}

// Record is l.Add(e), and nothing on a nil ledger (a server that keeps
// none).
func Record(l Ledger, e Entry) (done func() error, err error) {
	if l == nil {
		return func() error { return nil }, nil
	}
	return l.Add(e)
}

// Leftovers are the entries of l whose owner is gone, oldest first.
func Leftovers(l Ledger) ([]Entry, error) {
	all, err := l.Entries()
	var out []Entry
	for _, e := range all {
		if e.Orphaned() {
			out = append(out, e)
		}
	}
	return out, err
}
