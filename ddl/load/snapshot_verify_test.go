package load

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

// damage is a way a snapshot's file can be hurt after it was saved.
type damage struct {
	name string
	// hurt changes the file at path; it may rewrite the manifest man.
	hurt func(t *testing.T, path string, man *SnapshotManifest)
}

const innodbPage = 16384

var damages = []damage{
	{"zeroed pages, size kept", func(t *testing.T, path string, _ *SnapshotManifest) {
		zeroPages(t, path)
	}},
	{"cut short, new size in the manifest", func(t *testing.T, path string, man *SnapshotManifest) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		cut := fi.Size() - 2*innodbPage
		if err := os.Truncate(path, cut); err != nil {
			t.Fatal(err)
		}
		setFile(man, filepath.Base(path), func(f *SnapshotFile) { f.Size = cut })
	}},
	{"one bit flipped", func(t *testing.T, path string, _ *SnapshotManifest) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[3*innodbPage+2000] ^= 0x10
		if err := os.WriteFile(path, b, 0o640); err != nil {
			t.Fatal(err)
		}
	}},
}

// zeroPages zeroes every page from 4 on (past the primary key's root),
// keeping the file's size. Every page past it, not a range: the server
// counts rows through whichever index it finds smallest, and each index's
// pages, built after the load, may lie anywhere in the file: a damage
// that spared one index let the count read clean pages (1 run in 40).
func zeroPages(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clear(b[min(len(b), 4*innodbPage):])
	if err := os.WriteFile(path, b, 0o640); err != nil {
		t.Fatal(err)
	}
}

func setFile(man *SnapshotManifest, file string, set func(*SnapshotFile)) {
	for i := range man.Tables {
		for j := range man.Tables[i].Files {
			if man.Tables[i].Name+man.Tables[i].Files[j].Ext == file {
				set(&man.Tables[i].Files[j])
			}
		}
	}
}

func writeManifest(t *testing.T, dir string, man SnapshotManifest) {
	t.Helper()
	b, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, manifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A snapshot damaged after it was saved is refused, by name, with
// snapshot rm as the advice, before its damaged file is imported: zeroed
// pages (which the server's import accepts), a file cut short whose new
// size was written into the manifest, one flipped bit. Following the
// advice loads the dataset afresh.
func TestSnapshotDamagedRefused(t *testing.T) {
	ctx := context.Background()
	db, o, snap, _ := savedSnapshot(t, "ddl_snapshot_damaged", testSize)
	names := o.Schema.TableNames()
	want := checksums(t, db, names)
	for _, tab := range snap.Manifest.Tables {
		for _, f := range tab.Files {
			if sum, err := fileChecksum(filepath.Join(snap.Dir, tab.Name+f.Ext)); err != nil || sum != f.CRC32C {
				t.Errorf("%s%s: manifest checksum %q, file's %q (%v)", tab.Name, f.Ext, f.CRC32C, sum, err)
			}
		}
	}
	ibd := filepath.Join(snap.Dir, "level1.ibd")
	pristine, err := os.ReadFile(ibd)
	if err != nil {
		t.Fatal(err)
	}

	o.Recreate = true
	for _, d := range damages {
		man := snap.Manifest
		man.Tables = append([]SnapshotTable(nil), man.Tables...)
		for i := range man.Tables {
			man.Tables[i].Files = append([]SnapshotFile(nil), man.Tables[i].Files...)
		}
		if err := os.WriteFile(ibd, pristine, 0o640); err != nil {
			t.Fatal(err)
		}
		d.hurt(t, ibd, &man)
		writeManifest(t, snap.Dir, man)

		_, err := Prepare(ctx, db, o)
		var damaged *SnapshotDamagedError
		if !errors.As(err, &damaged) || !usage.Is(err) || damaged.Name != snap.Name() ||
			!strings.Contains(err.Error(), "joinbench snapshot rm "+snap.Name()) {
			t.Errorf("%s: restore gave %v, want the snapshot refused as damaged with snapshot rm as the advice", d.name, err)
		}
	}

	if err := o.Snapshots.Remove(snap.Name()); err != nil {
		t.Fatal(err)
	}
	res, err := Prepare(ctx, db, o)
	if err != nil || res.Restored != "" || res.Saved == "" {
		t.Fatalf("after snapshot rm: restored %q, saved %q, %v", res.Restored, res.Saved, err)
	}
	if got := checksums(t, db, names); !equalSums(got, want) {
		t.Errorf("loaded afresh: checksums %v, want %v", got, want)
	}
}

// A snapshot of the format before checksums (1) is not restored: prepare
// says it cannot be verified, names snapshot rm, loads afresh and saves a
// snapshot that can.
func TestSnapshotWithoutChecksumsLoadedAfresh(t *testing.T) {
	ctx := context.Background()
	db, o, snap, logs := savedSnapshot(t, "ddl_snapshot_format1", 300)
	man := snap.Manifest
	man.Key.Format = 1
	for i := range man.Tables {
		for j := range man.Tables[i].Files {
			man.Tables[i].Files[j].CRC32C = ""
		}
	}
	writeManifest(t, snap.Dir, man)
	old := filepath.Join(o.Snapshots.Dir, man.Key.Name())
	if err := os.Rename(snap.Dir, old); err != nil {
		t.Fatal(err)
	}

	o.Recreate = true
	res, err := Prepare(ctx, db, o)
	if err != nil || res.Restored != "" || res.Saved == "" {
		t.Fatalf("restored %q, saved %q, %v", res.Restored, res.Saved, err)
	}
	if log := logs.text(); !strings.Contains(log, "snapshot "+filepath.Base(old)+" was saved by another version of joinbench (snapshot format 1") ||
		!strings.Contains(log, "joinbench snapshot rm "+filepath.Base(old)) {
		t.Errorf("the format-1 snapshot's refusal is not logged:\n%s", log)
	}
	// a manifest of the current format that lacks a checksum is damaged
	man.Key.Format = snapshotFormat
	writeManifest(t, old, man)
	if err := checkSnapshotFiles(&Snapshot{Dir: old, Manifest: man}); !strings.Contains(errString(err), "no checksum recorded") {
		t.Errorf("a file without a checksum: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A snapshot is only taken of tables CHECK TABLE passes. The corrupt table
// here comes from a snapshot tampered with on purpose: zeroed pages with
// their new checksum written into the manifest, which verification cannot
// tell from the real thing.
func TestSnapshotNotTakenOfCorruptTables(t *testing.T) {
	ctx := context.Background()
	db, o, snap, _ := savedSnapshot(t, "ddl_snapshot_corrupt", testSize)
	names := o.Schema.TableNames()
	ibd := filepath.Join(snap.Dir, "level1.ibd")
	zeroPages(t, ibd)
	sum, err := fileChecksum(ibd)
	if err != nil {
		t.Fatal(err)
	}
	setFile(&snap.Manifest, "level1.ibd", func(f *SnapshotFile) { f.CRC32C = sum })
	writeManifest(t, snap.Dir, snap.Manifest)
	o.Recreate = true
	// The restore goes through (the checksums match), but reading the
	// restored rows finds the corruption: the snapshot is said damaged.
	var damaged *SnapshotDamagedError
	if _, err := Prepare(ctx, db, o); !errors.As(err, &damaged) || damaged.Name != snap.Name() {
		t.Fatalf("restoring the tampered snapshot: %v, want it said damaged", err)
	}

	srv, err := inspectSnapshotServer(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	other := SnapshotStore{Dir: t.TempDir()}
	_, err = other.save(ctx, db, srv, snap.Manifest.Key, names)
	if err == nil || !strings.Contains(err.Error(), "CHECK TABLE") || !strings.Contains(err.Error(), "level1") {
		t.Errorf("snapshot of a corrupt table: %v", err)
	}
	if list, _ := other.List(); len(list) != 0 {
		t.Errorf("a snapshot was saved: %v", list)
	}
}
