package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What RestoreNode reads from a backup: the redo it holds past its
// checkpoint and its Galera position; and the position it saves for the
// restored node reads back as that node's state.
func TestRestoreReadsTheBackup(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cp := write("xtrabackup_checkpoints", "backup_type = full-backuped\nfrom_lsn = 0\nto_lsn = 1000\nlast_lsn = 21000\n")
	if got := redoToApply(cp); got != 20000 {
		t.Errorf("redo to apply %d, want 20000", got)
	}
	if got := redoToApply(filepath.Join(dir, "none")); got != 0 {
		t.Errorf("no checkpoints file: %d", got)
	}
	gi := write("xtrabackup_galera_info", "bb49a937-ef3a-11f1-a184-9ff05da2e6e1:80988 0\n")
	pos, err := galeraInfo(gi)
	if err != nil || pos != "bb49a937-ef3a-11f1-a184-9ff05da2e6e1:80988" {
		t.Errorf("position %q, %v", pos, err)
	}
	if _, err := galeraInfo(write("bad", "nothing")); err == nil {
		t.Error("a position without seqno read")
	}
	if err := saveGrastate(dir, pos); err != nil {
		t.Fatal(err)
	}
	g, ok, err := readGrastate(dir)
	if err != nil || !ok || g.UUID != "bb49a937-ef3a-11f1-a184-9ff05da2e6e1" || g.Seqno != 80988 || g.SafeToBootstrap {
		t.Errorf("grastate %+v, %v, %v", g, ok, err)
	}
	if s := lastLines("a\nb\nc\n", 2); !strings.HasPrefix(s, "b") {
		t.Errorf("lastLines %q", s)
	}
}
