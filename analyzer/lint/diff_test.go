package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteDiff: the diff is what diff -u prints, so that patch applies
// it; hunks keep three lines of context and merge when they would
// overlap.
func TestWriteDiff(t *testing.T) {
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, "line "+strings.Repeat("x", i%3)+string(rune('a'+i)))
	}
	before := strings.Join(lines, "\n") + "\n"
	changed := append([]string(nil), lines...)
	changed[1] = "changed 2"
	changed[4] = "changed 5"
	changed = append(changed[:15], append([]string{"inserted"}, changed[15:]...)...)
	after := strings.Join(changed, "\n") // and the last newline dropped
	var b strings.Builder
	if err := (FileChange{Before: before, After: after}).WriteDiff(&b, "f.sql"); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if strings.Count(got, "@@ ") != 2 || !strings.HasPrefix(got, "--- f.sql\n+++ f.sql\n@@ -1,8 +1,8 @@\n") ||
		!strings.Contains(got, "\\ No newline at end of file\n") {
		t.Errorf("diff:\n%s", got)
	}
	if _, err := exec.LookPath("patch"); err != nil {
		return
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.sql"), []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("patch", "-s", "-p0")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(got)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s", err, out)
	}
	if patched, _ := os.ReadFile(filepath.Join(dir, "f.sql")); string(patched) != after {
		t.Errorf("patched:\n%s\nwant:\n%s", patched, after)
	}
	var none strings.Builder
	if err := (FileChange{Before: before, After: before}).WriteDiff(&none, "f.sql"); err != nil || none.Len() != 0 {
		t.Errorf("no change: %q, %v", none.String(), err)
	}
}
