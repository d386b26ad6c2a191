package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCaptured runs the command line and returns its exit code and stdout.
func runCaptured(t *testing.T, args ...string) (int, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	code := run(args)
	os.Stdout = old
	w.Close()
	return code, <-done
}

func TestListAndShow(t *testing.T) {
	code, out := runCaptured(t, "list", "--json", "-q")
	var listed []listedScenario
	if code != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 45 {
		t.Fatalf("list --json: exit %d, %d scenarios\n%s", code, len(listed), out)
	}
	code, out = runCaptured(t, "list", "--tags", "write+pk", "-q")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 6 || !strings.HasPrefix(lines[0], "NAME") {
		t.Errorf("list --tags write+pk: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "show", "simple_inner_pk", "--seed", "3", "--tables", "2")
	if code != 0 || !strings.Contains(out, "-- scenario: simple_inner_pk") || !strings.Contains(out, "AS m\nINNER JOIN level1") ||
		!strings.Contains(out, "-- bound: 1: '") {
		t.Errorf("show: exit %d\n%s", code, out)
	}
	if _, again := runCaptured(t, "show", "simple_inner_pk", "--seed", "3", "--tables", "2"); again != out {
		t.Error("show with one seed must print the same values twice")
	}
	if code, _ := runCaptured(t, "show", "no_such_scenario"); code != 2 {
		t.Errorf("show of an unknown scenario: exit %d, want 2", code)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "broken.sql"), []byte("-- param m: table(main)\nSELECT 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _ := runCaptured(t, "list", "--corpus", dir); code != 2 {
		t.Errorf("list of a broken corpus: exit %d, want 2", code)
	}
}

// TestListShowsKinds: list says what each scenario's statements do (read,
// or the kinds that are not plain reads), in its table and as JSON; show
// says it too.
func TestListShowsKinds(t *testing.T) {
	dir := ddlCorpus(t)
	if err := os.WriteFile(filepath.Join(dir, "mine", "count_orders.sql"), []byte("SELECT COUNT(*) FROM orders\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runCaptured(t, "list", "--corpus", dir, "--no-builtin", "-q")
	want := map[string]string{"count_orders": "read", "drop_orders": "ddl", "truncate_orders": "ddl"}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || strings.Join(strings.Fields(lines[0]), " ") != "NAME FAMILY KIND TAGS DESCRIPTION" {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	for _, l := range lines[1:] {
		if f := strings.Fields(l); len(f) < 3 || f[2] != want[f[0]] {
			t.Errorf("list line %q: want KIND %s", l, want[f[0]])
		}
	}
	code, out = runCaptured(t, "list", "--corpus", dir, "--no-builtin", "--json", "-q")
	var listed []listedScenario
	if code != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 3 {
		t.Fatalf("list --json: exit %d\n%s", code, out)
	}
	for _, s := range listed {
		if s.Name == "drop_orders" && strings.Join(s.Kinds, ",") != "read,ddl" {
			t.Errorf("drop_orders kinds %v, want [read ddl]", s.Kinds)
		}
	}
	code, out = runCaptured(t, "show", "--corpus", dir, "--no-builtin", "drop_orders")
	if code != 0 || !strings.Contains(out, "2 statement(s) (read, ddl), write: true") {
		t.Errorf("show: exit %d\n%s", code, out)
	}
}

// TestBrokenFileHidesNothing: a file that does not load is reported with
// each of its mistakes (file:line:col) and the exit code is 2, but list,
// show and rewrite still serve the rest of the corpus.
func TestBrokenFileHidesNothing(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{
		"good_right.sql": "-- param m: table(main)\nSELECT m.id FROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id;\n",
		"broken.sql":     "-- descripton: misspelt\n-- count: x\nSELECT 1;\n",
	})
	broken := filepath.Join(dir, "broken.sql")
	wantErr := []string{
		"joinbench: " + broken + `:1:4: unknown header key "descripton"; did you mean description?`,
		"joinbench: " + broken + `:2:11: count must be a whole number`,
	}
	checkErr := func(cmd, stderr string) {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if len(lines) != len(wantErr) {
			t.Errorf("%s: stderr\n%s\nwant the broken file's %d mistakes", cmd, stderr, len(wantErr))
			return
		}
		for i, w := range wantErr {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("%s: stderr line %d: %s\nwant %s...", cmd, i+1, lines[i], w)
			}
		}
	}
	code, out, stderr := runCapturedAll(t, "list", "-q", "--no-builtin", "--corpus", dir)
	if code != 2 || !strings.Contains(out, "good_right") || strings.Contains(out, "broken") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	checkErr("list", stderr)
	code, out, stderr = runCapturedAll(t, "show", "-q", "--corpus", dir, "good_right")
	if code != 2 || !strings.Contains(out, "-- rendering 1") {
		t.Errorf("show: exit %d\n%s", code, out)
	}
	checkErr("show", stderr)
	code, out, stderr = runCapturedAll(t, "rewrite", "-q", "--corpus", dir, "good_right")
	if code != 2 || !strings.Contains(out, "FROM {{m}} AS m LEFT JOIN level1") {
		t.Errorf("rewrite: exit %d\n%s", code, out)
	}
	checkErr("rewrite", stderr)
	code, out, stderr = runCapturedAll(t, "show", "-q", "--corpus", dir, "broken")
	if code != 2 || out != "" || !strings.Contains(stderr, "joinbench: scenario \"broken\": "+broken+" does not load") {
		t.Errorf("show of the broken scenario: exit %d\n%s\n%s", code, out, stderr)
	}
}
