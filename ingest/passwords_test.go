package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPasswordsNeverWritten imports logs that hold passwords in clear
// (MariaDB 10.11 writes CREATE USER ... IDENTIFIED BY 'x', SET PASSWORD
// ... PASSWORD('x'), ALTER USER and GRANT ... IDENTIFIED BY as sent, in
// both logs) with every option that keeps the most (writes, the values
// seen as lists): no scenario, list or summary holds any part of them,
// while the plain statement beside them is imported.
func TestPasswordsNeverWritten(t *testing.T) {
	s := NewSet(&Filter{Writes: true})
	for _, f := range []string{"testdata/mariadb-passwords-slow.log", "testdata/mariadb-passwords-general.log",
		"testdata/mysql8-slow.log", "testdata/mysql8-general.log"} {
		if err := s.ReadFile(f, FormatAuto); err != nil {
			t.Fatal(err)
		}
	}
	if s.Skipped[SkipPassword] != 2*5+2 {
		t.Errorf("%d statements dropped for a password, want 12 (in each MariaDB log four and a DROP USER, one in each MySQL log): %v", s.Skipped[SkipPassword], s.Skipped)
	}
	rep := Choose(s, 0, false, BuildOptions{InferOptions: InferOptions{Values: ValuesLog}, Writes: true})
	dir := t.TempDir()
	if err := rep.Write(dir); err != nil {
		t.Fatal(err)
	}
	imported := false
	texts := []string{rep.Summary(dir)}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
		imported = imported || strings.Contains(string(b), "FROM main1 WHERE continent = {{continent}}")
	}
	if !imported {
		t.Errorf("the SELECT beside the passwords was not imported: %v", files)
	}
	for _, text := range texts {
		for _, secret := range []string{"Sup3r", "Secret", "THISISACOMBINATION", "IDENTIFIED", "report'@"} {
			if strings.Contains(text, secret) {
				t.Errorf("%q written:\n%s", secret, text)
			}
		}
	}
}
