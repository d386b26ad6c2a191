package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Folder is a ledger kept as a folder of entries, one JSON file each: a
// sandbox's.
type Folder struct{ dir string }

// Open is the ledger in dir (made on the first Add).
func Open(dir string) *Folder { return &Folder{dir: dir} }

// Dir is its folder.
func (l *Folder) Dir() string { return l.dir }

// Where names it in messages.
func (l *Folder) Where() string { return "the ledger " + l.dir }

// Add writes e, owned by this process, before the change it describes is
// made. done removes it: call it once the change is undone (calling it
// twice is harmless). On a nil *Folder (a server with none) it does
// nothing.
func (l *Folder) Add(e Entry) (done func() error, err error) {
	if l == nil {
		return func() error { return nil }, nil
	}
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	e = e.stamped()
	if err := l.write(e); err != nil {
		return nil, err
	}
	return func() error { return l.Remove(e.ID) }, nil
}

func (l *Folder) write(e Entry) error {
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
func (l *Folder) Remove(id string) error {
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
func (l *Folder) Entries() ([]Entry, error) {
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
func (l *Folder) Leftovers() ([]Entry, error) { return Leftovers(l) }
