package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestCopyDataDir checks what a joiner's copy of node1's data holds: every
// file and directory with its permissions, but what is node1's own (its
// Galera cache, view and position) and InnoDB's temporary tablespace.
func TestCopyDataDir(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	files := map[string]string{
		"ibdata1":          "system tablespace",
		"ib_logfile0":      "redo",
		"mysql/user.MAD":   "users",
		"joinbench/db.opt": "default-character-set=utf8mb4",
		"galera.cache":     "write-sets",
		"gvwstate.dat":     "my_uuid: node1",
		"grastate.dat":     "seqno: 4",
		"ibtmp1":           "temporary",
		"mysql/ibtmp1":     "not the temporary tablespace: a table's file of that name",
	}
	for name, body := range files {
		p := filepath.Join(from, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o660); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o660); err != nil { // whatever the umask
			t.Fatal(err)
		}
	}
	if err := copyDataDir(from, to); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := filepath.WalkDir(to, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(to, p)
		got = append(got, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if string(b) != files[rel] {
			t.Errorf("%s holds %q, want %q", rel, b, files[rel])
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o660 {
			t.Errorf("%s has mode %v, want 0660", rel, st.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := "ib_logfile0 ibdata1 joinbench/db.opt mysql/ibtmp1 mysql/user.MAD"
	if strings.Join(got, " ") != want {
		t.Errorf("copied %v, want %s", got, want)
	}
	if st, err := os.Stat(filepath.Join(to, "mysql")); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("mysql/ copied as %v, %v; want a directory of mode 0700", st, err)
	}
	// A copy never mixes with what a data directory already holds.
	if err := copyDataDir(from, to); err == nil {
		t.Error("a second copy into the same directory succeeded")
	}
}
