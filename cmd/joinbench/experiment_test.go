package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/experiment"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/throttle"
)

// The command's enum of lessons is the package's list.
func TestExperimentLessonsEnum(t *testing.T) {
	f, ok := reflect.TypeOf(experimentCmd{}).FieldByName("Lesson")
	if !ok {
		t.Fatal("no Lesson field")
	}
	if got, want := f.Tag.Get("enum"), strings.Join(experiment.LessonNames(), ","); got != want {
		t.Errorf("enum %q, want %q", got, want)
	}
}

func TestExperimentRefusesWithoutSandbox(t *testing.T) {
	code, _, stderr := runCapturedAll(t, "experiment", "slow-node")
	if code != 2 || !strings.Contains(stderr, "experiment needs a running sandbox") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("exit %d, %q; want 2 and one line", code, stderr)
	}
}

// TestExperimentSlowNode starts a real 3-node cluster sandbox and runs
// the slow-node lesson short, at 50% on disk: the page is written, the
// table has a row per node and the cluster, and the cluster's throughput
// while node3 is throttled is well below its quiet windows' (a generous
// margin: the machine is shared).
func TestExperimentSlowNode(t *testing.T) {
	needGalera(t)
	dir := t.TempDir()
	if err := throttle.Check(throttle.IO, dir); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	sbDir := filepath.Join(dir, "sandboxes")
	startCluster(t, "x", sbDir, "64M")
	outDir := filepath.Join(dir, "out")
	code, stdout, stderr := runCapturedAll(t, "experiment", "slow-node", "--sandbox", "x", "--sandbox-dir", sbDir, "--out", outDir,
		"--percent", "50", "--resource", "io", "--node", "node3", "--window", "5s", "--repetitions", "2", "--warmup", "2s",
		"--table-size", "5000", "-q")
	if code != 0 {
		t.Fatalf("experiment slow-node: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, f := range []string{"slow-node.md", "slow-node.html"} {
		if _, err := os.Stat(filepath.Join(outDir, f)); err != nil {
			t.Error(err)
		}
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	for _, name := range []string{"endpoint", "node1", "node2", "node3", "cluster", "verdict:"} {
		if rows[name] == nil {
			t.Errorf("no %s line in\n%s", name, stdout)
		}
	}
	cluster := rows["cluster"]
	if len(cluster) < 3 {
		t.Fatalf("cluster row %q", cluster)
	}
	before, err1 := strconv.ParseFloat(cluster[1], 64)
	during, err2 := strconv.ParseFloat(cluster[2], 64)
	if err1 != nil || err2 != nil || before <= 0 {
		t.Fatalf("cluster row %q", cluster)
	}
	if during > 0.85*before {
		t.Errorf("cluster throughput %.0f/s with node3 50%% slower on disk, %.0f/s before: want a drop of 15%% at least\n%s", during, before, stdout)
	}
}

// TestExperimentRestore starts a real 3-node cluster sandbox and restores
// node3 once per --use-memory value: the page is written with a row per
// value, each restore joined by IST or SST, and a verdict on the redo
// share (the figures themselves depend on the machine).
func TestExperimentRestore(t *testing.T) {
	needGalera(t)
	dir := t.TempDir()
	sbDir := filepath.Join(dir, "sandboxes")
	startCluster(t, "x", sbDir, "64M")
	outDir := filepath.Join(dir, "out")
	code, stdout, stderr := runCapturedAll(t, "experiment", "restore", "--sandbox", "x", "--sandbox-dir", sbDir, "--out", outDir,
		"--use-memory", "100M,2G", "--node", "node3", "--repetitions", "1", "--window", "2s", "--warmup", "1s",
		"--threads", "2", "--table-size", "5000", "-q")
	if code != 0 {
		t.Fatalf("experiment restore: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, f := range []string{"restore.md", "restore.html"} {
		if _, err := os.Stat(filepath.Join(outDir, f)); err != nil {
			t.Error(err)
		}
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	for _, mem := range []string{"100M", "2G"} {
		r := rows[mem]
		if len(r) == 0 {
			t.Errorf("no row for --use-memory %s:\n%s", mem, stdout)
			continue
		}
		if joined := r[len(r)-1]; joined != "ist" && joined != "sst" {
			t.Errorf("%s joined by %q, want ist or sst:\n%s", mem, joined, stdout)
		}
	}
	if !strings.Contains(stdout, "verdict: redo apply was ") || !strings.Contains(stdout, "of the restore with 100M and ") {
		t.Errorf("verdict missing:\n%s", stdout)
	}
}
