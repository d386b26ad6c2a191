package ledger

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Entry is one change made, not yet undone.
type Entry struct {
	// ID names the entry in its ledger (its file is ID.json).
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
func (e Entry) Orphaned() bool { return !e.Owner.Alive() }

// Ledger is a folder of entries.
type Ledger struct{ dir string }

// Open is the ledger in dir (made on the first Add).
func Open(dir string) *Ledger { return &Ledger{dir: dir} }

// Dir is its folder.
func (l *Ledger) Dir() string { return l.dir }

// Add writes e, owned by this process, before the change it describes is
// made. done removes it: call it once the change is undone (calling it
// twice is harmless). On a nil ledger (a server with none) it does
// nothing.
func (l *Ledger) Add(e Entry) (done func() error, err error) {
	if l == nil {
		return func() error { return nil }, nil
	}
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	e.ID = fmt.Sprintf("%s-%s-%s", time.Now().UTC().Format("20060102T150405"), e.Kind, hex.EncodeToString(b[:]))
	if e.Owner.PID == 0 {
		e.Owner = Self()
	}
	if e.Command == "" {
		e.Command = strings.Join(os.Args, " ")
		if len(e.Command) > 300 {
			e.Command = e.Command[:300] + "..."
		}
	}
	e.Made = time.Now().UTC()
	if err := l.write(e); err != nil {
		return nil, err
	}
	return func() error { return l.Remove(e.ID) }, nil
}

func (l *Ledger) write(e Entry) error {
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(l.dir, e.ID+".json")
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

// Remove deletes the entry id: its change is undone.
func (l *Ledger) Remove(id string) error {
	if l == nil {
		return nil
	}
	err := os.Remove(filepath.Join(l.dir, id+".json"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

// Entries are every entry in it, oldest first. A file that cannot be
// read is an error naming it: a ledger that lies about what it holds
// must not be skipped silently.
func (l *Ledger) Entries() ([]Entry, error) {
	if l == nil {
		return nil, nil
	}
	des, err := os.ReadDir(l.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	var out []Entry
	for _, de := range des {
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".json") {
			continue
		}
		p := filepath.Join(l.dir, de.Name())
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // removed meanwhile by its owner
		}
		if err != nil {
			return nil, fmt.Errorf("ledger: %w", err)
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, fmt.Errorf("ledger: %s: %w", p, err)
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return a.Made.Compare(b.Made) })
	return out, nil
}

// Leftovers are the entries whose owner is gone, oldest first.
func (l *Ledger) Leftovers() ([]Entry, error) {
	all, err := l.Entries()
	var out []Entry
	for _, e := range all {
		if e.Orphaned() {
			out = append(out, e)
		}
	}
	return out, err
}
