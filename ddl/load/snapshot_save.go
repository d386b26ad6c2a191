package load

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// snapshotExts are the files of a table a snapshot keeps: the tablespace
// and the metadata FLUSH TABLES ... FOR EXPORT writes next to it, which
// the import checks the new table against.
var snapshotExts = []string{".ibd", ".cfg"}

// save takes a snapshot of tables (loaded with the dataset of key) into
// the store, once CHECK TABLE has passed them. The tables are locked with
// FLUSH TABLES ... FOR EXPORT while their files are copied: the server
// has written every change to them and writes nothing more until UNLOCK
// TABLES, so each copy is the whole table. The snapshot is written into a hidden folder and renamed into
// place once on disk, so a folder with a manifest is always complete.
func (st SnapshotStore) save(ctx context.Context, db *sql.DB, srv *snapshotServer, key SnapshotKey, tables []string) (*Snapshot, error) {
	if err := checkTables(ctx, db, tables); err != nil {
		return nil, err
	}
	man := SnapshotManifest{Key: key, Created: time.Now().UTC(), Database: srv.Database}
	for _, t := range tables {
		create, err := showCreate(ctx, db, t)
		if err != nil {
			return nil, err
		}
		man.Tables = append(man.Tables, SnapshotTable{Name: t, Create: create})
	}
	if err := os.MkdirAll(st.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("snapshot folder: %w", err)
	}
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		return nil, err
	}
	tmp := filepath.Join(st.Dir, "."+key.Name()+"-"+hex.EncodeToString(r[:]))
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("snapshot folder: %w", err)
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(tmp)
		}
	}()
	if err := exportFiles(ctx, db, srv, tmp, man.Tables); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, manifestFile), append(b, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("snapshot manifest: %w", err)
	}
	if err := syncDir(tmp); err != nil {
		return nil, fmt.Errorf("snapshot folder: %w", err)
	}
	dir := filepath.Join(st.Dir, key.Name())
	err = os.Rename(tmp, dir)
	if errors.Is(err, fs.ErrExist) || isNotEmpty(err) {
		if other, rerr := readSnapshot(dir); rerr == nil && other.Manifest.Key == key {
			return other, nil // another prepare saved the same snapshot meanwhile
		}
		// a folder of that name without a manifest of that key: an
		// abandoned or edited one, which this snapshot replaces
		if err = os.RemoveAll(dir); err == nil {
			err = os.Rename(tmp, dir)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot folder: %w", err)
	}
	keep = true
	if err := syncDir(st.Dir); err != nil {
		return nil, fmt.Errorf("snapshot folder: %w", err)
	}
	return &Snapshot{Dir: dir, Manifest: man}, nil
}

func isNotEmpty(err error) bool { return errors.Is(err, syscall.ENOTEMPTY) }

// exportFiles copies the files of tables into dir under the export lock,
// and records their sizes and checksums in tables. The copies are
// checksummed and synced to disk after the lock is released: the server
// need not wait for that.
func exportFiles(ctx context.Context, db *sql.DB, srv *snapshotServer, dir string, tables []SnapshotTable) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	quoted := make([]string, len(tables))
	for i, t := range tables {
		quoted[i] = sqllex.QuoteIdent(t.Name)
	}
	if _, err := conn.ExecContext(ctx, "FLUSH TABLES "+strings.Join(quoted, ", ")+" FOR EXPORT"); err != nil {
		return fmt.Errorf("snapshot: FLUSH TABLES ... FOR EXPORT: %w", err)
	}
	copyErr := func() error {
		for i := range tables {
			t := &tables[i]
			t.Files = nil
			for _, ext := range snapshotExts {
				src := srv.filePath(t.Name, ext)
				fi, err := os.Stat(src)
				if err != nil {
					return fmt.Errorf("snapshot of %s: the server's export left no %s: %w", t.Name, ext, err)
				}
				if err := copyFile(src, filepath.Join(dir, t.Name+ext), fi.Size(), false); err != nil {
					return fmt.Errorf("snapshot of %s: %w", t.Name, err)
				}
				t.Files = append(t.Files, SnapshotFile{Ext: ext, Size: fi.Size()})
			}
		}
		return nil
	}()
	// UNLOCK TABLES also removes the .cfg files the export wrote
	if _, err := conn.ExecContext(context.WithoutCancel(ctx), "UNLOCK TABLES"); err != nil && copyErr == nil {
		copyErr = fmt.Errorf("snapshot: UNLOCK TABLES: %w", err)
	}
	if copyErr != nil {
		return copyErr
	}
	for _, t := range tables {
		for i := range t.Files {
			f := &t.Files[i]
			p := filepath.Join(dir, t.Name+f.Ext)
			sum, err := fileChecksum(p)
			if err == nil {
				f.CRC32C = sum
				err = syncFile(p)
			}
			if err != nil {
				return fmt.Errorf("snapshot of %s: %w", t.Name, err)
			}
		}
	}
	return nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// showCreate returns the table's CREATE TABLE as the server prints it.
func showCreate(ctx context.Context, db *sql.DB, table string) (string, error) {
	var name, create string
	if err := db.QueryRowContext(ctx, "SHOW CREATE TABLE "+sqllex.QuoteIdent(table)).Scan(&name, &create); err != nil {
		return "", fmt.Errorf("snapshot: SHOW CREATE TABLE %s: %w", table, err)
	}
	return create, nil
}
