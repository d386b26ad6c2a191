package dirlist

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestNames(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"b", "a", ".hidden", "c"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Names(root)
	if err != nil || !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Names = %q, %v; want the folders a, b, c", got, err)
	}
	if got, err := Names(filepath.Join(root, "missing")); err != nil || len(got) != 0 {
		t.Errorf("Names of a missing root = %q, %v; want none", got, err)
	}
}
