package load

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/dirlist"
	"github.com/joinbench/joinbench/internal/usage"
)

// SnapshotStore is a folder of snapshots of prepared datasets, one
// sub-folder each, named by its key (SnapshotKey.Name): a manifest
// (snapshot.json) and every table's tablespace file (.ibd) and export
// metadata (.cfg) as FLUSH TABLES ... FOR EXPORT left them.
type SnapshotStore struct {
	Dir string
}

// manifestFile is the manifest's name in a snapshot's folder; a folder
// without one is a snapshot being written (or abandoned half-way).
const manifestFile = "snapshot.json"

// SnapshotManifest describes a snapshot.
type SnapshotManifest struct {
	Key     SnapshotKey `json:"key"`
	Created time.Time   `json:"created"`
	// Database is the database it was taken from (information only).
	Database string          `json:"database"`
	Tables   []SnapshotTable `json:"tables"`
}

// SnapshotTable is one table of a snapshot.
type SnapshotTable struct {
	Name string `json:"name"`
	// Create is the table's SHOW CREATE TABLE: an import needs a table of
	// exactly the definition the files were exported from.
	Create string         `json:"create"`
	Files  []SnapshotFile `json:"files"`
}

// SnapshotFile is one file of a table, by its extension.
type SnapshotFile struct {
	Ext  string `json:"ext"` // ".ibd" or ".cfg"
	Size int64  `json:"size"`
	// CRC32C is the checksum of the file as saved (fileChecksum): a
	// restore verifies every copy against it before the import.
	CRC32C string `json:"crc32c"`
}

// Snapshot is a snapshot found in a store.
type Snapshot struct {
	Dir      string
	Manifest SnapshotManifest
}

// Name is the snapshot's folder name.
func (s *Snapshot) Name() string { return filepath.Base(s.Dir) }

// Bytes is the size of its files.
func (s *Snapshot) Bytes() int64 {
	var n int64
	for _, t := range s.Manifest.Tables {
		n += t.bytes()
	}
	return n
}

// DefaultSnapshotDir is where snapshots live unless told otherwise: the
// user's cache folder ($XDG_CACHE_HOME or ~/.cache on Linux), under
// joinbench/snapshots.
func DefaultSnapshotDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", usage.Errorf("no cache folder for snapshots (%v): name one with --snapshot-dir", err)
	}
	return filepath.Join(c, "joinbench", "snapshots"), nil
}

// List returns the store's snapshots, by name. A store that does not exist
// yet has none.
func (st SnapshotStore) List() ([]*Snapshot, error) {
	names, err := dirlist.Names(st.Dir)
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	var out []*Snapshot
	for _, name := range names {
		s, err := readSnapshot(filepath.Join(st.Dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // not a snapshot, or one being written
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func readSnapshot(dir string) (*Snapshot, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: dir}
	if err := json.Unmarshal(b, &s.Manifest); err != nil {
		return nil, fmt.Errorf("snapshot %s: %s: %w", filepath.Base(dir), manifestFile, err)
	}
	return s, nil
}

// Lookup finds the snapshot of key. When there is none, refused says why
// each snapshot of the same dataset taken on another server, or saved in
// another snapshot format, does not fit, one line each.
func (st SnapshotStore) Lookup(key SnapshotKey) (match *Snapshot, refused []string, err error) {
	all, err := st.List()
	if err != nil {
		return nil, nil, err
	}
	for _, s := range all {
		switch {
		case s.Manifest.Key == key:
			return s, nil, nil
		case s.Manifest.Key.SameDataset(key) && s.Manifest.Key.Format != key.Format:
			refused = append(refused, fmt.Sprintf("snapshot %s was saved by another version of joinbench (snapshot format %d, this one restores %d; format 1 recorded no checksums to verify its files with): remove it with 'joinbench snapshot rm %s'",
				s.Name(), s.Manifest.Key.Format, key.Format, s.Name()))
		case s.Manifest.Key.SameDataset(key):
			refused = append(refused, fmt.Sprintf("snapshot %s does not fit this server: %s", s.Name(), s.Manifest.Key.Mismatch(key)))
		}
	}
	return nil, refused, nil
}

// Remove deletes the snapshot of that name.
func (st SnapshotStore) Remove(name string) error {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return usage.Errorf("%q is not a snapshot name (see joinbench snapshot list)", name)
	}
	dir := filepath.Join(st.Dir, name)
	if _, err := os.Stat(filepath.Join(dir, manifestFile)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return usage.Errorf("no snapshot %s in %s (see joinbench snapshot list)", name, st.Dir)
		}
		return err
	}
	// the manifest first: a removal that stops half-way leaves a folder
	// that is no longer taken for a snapshot
	if err := os.Remove(filepath.Join(dir, manifestFile)); err != nil {
		return fmt.Errorf("remove snapshot %s: %w", name, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove snapshot %s: %w", name, err)
	}
	return nil
}
