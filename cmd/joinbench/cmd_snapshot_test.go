package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSnapshotListAndRm(t *testing.T) {
	dir := t.TempDir()
	name := "main4-100000-seed1-uniform-0123456789abcdef"
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"key":{"format":1,"dataset":{"tables":4,"table_name":"main","table_size":100000,"seed":1,"distribution":"uniform"},
		"server":{"version":"10.11.19-MariaDB"}},"created":"2026-01-02T03:04:05Z",
		"tables":[{"name":"main1","files":[{"ext":".ibd","size":1048576},{"ext":".cfg","size":1024}]}]}`
	if err := os.WriteFile(filepath.Join(dir, name, "snapshot.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runCaptured(t, "snapshot", "list", "--snapshot-dir", dir)
	if code != 0 || !strings.Contains(out, name) || !strings.Contains(out, "10.11.19-MariaDB") || !strings.Contains(out, "1.0 MiB") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	code, out = runCaptured(t, "snapshot", "list", "--snapshot-dir", dir, "--format", "json")
	var listed []snapshotJSON
	if err := json.Unmarshal([]byte(out), &listed); code != 0 || err != nil || len(listed) != 1 || listed[0].Name != name ||
		listed[0].Bytes != 1049600 || listed[0].Dataset.Tables != 4 || listed[0].Server.Version != "10.11.19-MariaDB" {
		t.Fatalf("list --format json: exit %d, %v\n%s", code, err, out)
	}
	for _, args := range [][]string{
		{"snapshot", "rm", "--snapshot-dir", dir},                      // nothing named
		{"snapshot", "rm", "--snapshot-dir", dir, "--all", name},       // both
		{"snapshot", "rm", "--snapshot-dir", dir, "main1-no-such-one"}, // unknown
	} {
		if code, _ := runCaptured(t, append([]string{"-q"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _ := runCaptured(t, "-q", "snapshot", "rm", "--snapshot-dir", dir, name); code != 0 {
		t.Fatalf("rm: exit %d", code)
	}
	if code, out := runCaptured(t, "-q", "snapshot", "list", "--snapshot-dir", dir); code != 0 || out != "" {
		t.Errorf("list after rm: exit %d\n%s", code, out)
	}
	if code, out := runCaptured(t, "-q", "snapshot", "list", "--snapshot-dir", dir, "--json"); code != 0 || out != "[]\n" {
		t.Errorf("list --json after rm: exit %d\n%s", code, out)
	}
}
