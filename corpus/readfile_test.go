package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readFile reads what os.ReadFile reads, whatever the size against its
// scratch buffer, and fails as it fails.
func TestReadFileAsOSReadFile(t *testing.T) {
	dir := t.TempDir()
	var buf []byte
	for _, n := range []int{0, 1, minReadBuf - 1, minReadBuf, minReadBuf + 1, 3*minReadBuf + 7} {
		p := filepath.Join(dir, "f.sql")
		want := strings.Repeat("x", n)
		if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		var got string
		var err error
		got, buf, err = readFile(p, buf)
		if err != nil || got != want {
			t.Errorf("size %d: got %d bytes, %v", n, len(got), err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "missing.sql"), dir} {
		_, wantErr := os.ReadFile(p)
		_, _, err := readFile(p, nil)
		if err == nil || wantErr == nil || err.Error() != wantErr.Error() {
			t.Errorf("%s: error %v, os.ReadFile's %v", p, err, wantErr)
		}
	}
}
