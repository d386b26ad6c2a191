package load

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// SnapshotDamagedError is a snapshot whose files are not those it saved: a
// file missing, cut or changed since. It is refused: restoring it again
// would fail the same way, so the advice is to remove it.
type SnapshotDamagedError struct {
	Name   string
	Reason string
}

func (e *SnapshotDamagedError) Error() string {
	return fmt.Sprintf("snapshot %s is damaged (%s): remove it with 'joinbench snapshot rm %s'; prepare --snapshot then loads afresh and saves a new one (add --recreate if tables were left)",
		e.Name, e.Reason, e.Name)
}

// checkSnapshotFiles refuses, before anything is touched, a snapshot
// missing a file, holding one of another size than when it was saved, or
// recording no checksum for one.
func checkSnapshotFiles(snap *Snapshot) error {
	for _, t := range snap.Manifest.Tables {
		for _, f := range t.Files {
			name := t.Name + f.Ext
			fi, err := os.Stat(filepath.Join(snap.Dir, name))
			var why string
			switch {
			case err != nil:
				why = err.Error()
			case fi.Size() != f.Size:
				why = fmt.Sprintf("%d bytes instead of %d", fi.Size(), f.Size)
			case f.CRC32C == "":
				why = "no checksum recorded"
			}
			if why != "" {
				return &SnapshotDamagedError{Name: snap.Name(), Reason: name + ": " + why}
			}
		}
	}
	return nil
}

// verifyCopy checks that the copy at path of a snapshot's file has the
// checksum the file had when it was saved. It reads the copy just written
// (from the page cache), so it verifies exactly what the server imports,
// and a copy made by reflink keeps sharing its blocks.
func verifyCopy(snap *Snapshot, t SnapshotTable, f SnapshotFile, path string) error {
	sum, err := fileChecksum(path)
	if err != nil {
		return err
	}
	if sum != f.CRC32C {
		return &SnapshotDamagedError{Name: snap.Name(),
			Reason: fmt.Sprintf("%s%s changed since it was saved: CRC-32C %s, saved as %s", t.Name, f.Ext, sum, f.CRC32C)}
	}
	return nil
}

// checkTables runs CHECK TABLE ... QUICK on the tables a snapshot is about
// to be taken of, so that a snapshot is only ever of tables the server
// can read whole: the server walks every index of each.
func checkTables(ctx context.Context, db *sql.DB, tables []string) error {
	quoted := make([]string, len(tables))
	for i, t := range tables {
		quoted[i] = sqllex.QuoteIdent(t)
	}
	rows, err := db.QueryContext(ctx, "CHECK TABLE "+strings.Join(quoted, ", ")+" QUICK")
	if err != nil {
		return fmt.Errorf("snapshot: CHECK TABLE: %w", err)
	}
	defer rows.Close()
	passed := 0
	var problems []string
	for rows.Next() {
		var table, op, typ, text string
		if err := rows.Scan(&table, &op, &typ, &text); err != nil {
			return fmt.Errorf("snapshot: CHECK TABLE: %w", err)
		}
		switch {
		case strings.EqualFold(typ, "status") && strings.EqualFold(text, "OK"):
			passed++
		case !strings.EqualFold(typ, "note"):
			problems = append(problems, table+": "+text)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("snapshot: CHECK TABLE: %w", err)
	}
	if len(problems) > 0 || passed != len(tables) {
		return fmt.Errorf("snapshot not taken: CHECK TABLE passed %d of the %d tables: %s", passed, len(tables), strings.Join(problems[:min(len(problems), 3)], "; "))
	}
	return nil
}
