package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// run.json is written with its format; a later format, or a field of the
// wrong type, is refused naming what is wrong, and not read as if known.
func TestRunFileFormatChecked(t *testing.T) {
	d, err := Create(t.TempDir(), "r", "h")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteRun(&Run{RunID: "r", ServerVersion: "10.11", Start: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(d.Path(), RunFile)
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"format_version": 1`) || CheckRunFile(d.Path()) != nil {
		t.Fatalf("run.json as written: %v\n%s", CheckRunFile(d.Path()), b)
	}
	for name, c := range map[string]struct{ from, to, want string }{
		"a later format": {`"format_version": 1`, `"format_version": 2`, "joinbench format 2, this joinbench reads format 1 and older: a joinbench that reads format 2 is needed"},
		"a wrong type":   {`"server_version": "10.11"`, `"server_version": 10`, "server_version holds a JSON number where a string is expected"},
	} {
		if err := os.WriteFile(path, []byte(strings.Replace(string(b), c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		err := CheckRunFile(d.Path())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
		var warned []error
		if r := ReadRunInfo(d.Path(), func(err error) { warned = append(warned, err) }); r != nil || len(warned) == 0 {
			t.Errorf("%s: read as %+v, warnings %v", name, r, warned)
		}
	}
}

// A Parquet file of a later format is skipped with a warning naming the
// format needed, by the row reader and by the column reader.
func TestParquetFormatChecked(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "executions-h-0.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[Execution](f, parquet.KeyValueMetadata("joinbench.format", "2"))
	if _, err := w.Write([]Execution{{RunID: "r", Scenario: "s", LatencyNs: 5, Start: time.Unix(1, 0)}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var warned []error
	rows := 0
	if _, err := ScanExecutions(dir, func(err error) { warned = append(warned, err) }, func(*Execution) error { rows++; return nil }); err != nil {
		t.Fatal(err)
	}
	var fe *FormatError
	if rows != 0 || len(warned) != 1 || !errors.As(warned[0], &fe) || !strings.Contains(warned[0].Error(), "a joinbench that reads format 2 is needed") {
		t.Errorf("rows %d, warnings %v", rows, warned)
	}
	warned = nil
	cf, closeFn := openColumnFile(filepath.Join(dir, "executions-h-0.parquet"), func(err error) { warned = append(warned, err) })
	if closeFn != nil {
		closeFn()
	}
	if cf != nil || len(warned) != 1 || !errors.As(warned[0], &fe) {
		t.Errorf("column reader: %v, warnings %v", cf, warned)
	}
}
