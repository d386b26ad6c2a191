package ddl

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDumpTSVMatchesGenerator(t *testing.T) {
	dir := t.TempDir()
	files, err := DumpTSV(dir, SchemaOptions{}, GenOptions{Seed: 5, TableSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 6 {
		t.Fatalf("%d files", len(files))
	}
	g, _ := NewGenerator(GenOptions{Seed: 5, TableSize: 50})
	got, err := os.ReadFile(filepath.Join(dir, "level2.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if want := genAll(t, g, LevelTable, 2, TSV); string(got) != string(want) {
		t.Error("level2.tsv differs from the generator's rows")
	}
}
