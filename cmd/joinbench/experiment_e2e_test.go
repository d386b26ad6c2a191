//go:build e2e

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/throttle"
	"github.com/joinbench/joinbench/results"
)

// TestExperimentSlowNode starts a real 3-node cluster sandbox and runs
// the slow-node lesson short, at 50% on disk, and checks mechanisms, not
// magnitudes (the machine may be busy): the page is written, the table has
// a row per node and the cluster, every throttle was applied and lifted
// (its actions succeeded, no node is left in a throttle's cgroup), and
// the verdict agrees with the table it sums up.
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
	lines := map[string]string{}
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			lines[f[0]] = line
		}
	}
	for _, name := range []string{"endpoint", "node1", "node2", "node3", "cluster", "verdict:"} {
		if lines[name] == "" {
			t.Errorf("no %s line in\n%s", name, stdout)
		}
	}
	checkThrottlesLifted(t, outDir, sbDir, 2)
	checkVerdictAgreesWithTable(t, lines["verdict:"], lines["cluster"])
}

// checkThrottlesLifted checks that the lesson's run throttled its node
// want times, each action ending well (the limit written, then lifted),
// and that no server of the sandbox is left in a throttle's cgroup.
func checkThrottlesLifted(t *testing.T, outDir, sbDir string, want int) {
	t.Helper()
	runs, _ := filepath.Glob(filepath.Join(outDir, "run=*"))
	slow := 0
	for _, run := range runs {
		rows, err := results.ReadActions(run, func(err error) { t.Error(err) })
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Kind != "slow" {
				continue
			}
			slow++
			if r.Outcome != results.ActionOK {
				t.Errorf("slow action %d on %s: %s: %s", r.Action, r.Node, r.Outcome, r.ErrorMessage)
			}
		}
	}
	if slow != want {
		t.Errorf("%d slow actions recorded in %s, want %d", slow, outDir, want)
	}
	checkNoThrottleLeft(t, sbDir)
}

// checkNoThrottleLeft checks that no process of the sandboxes under sbDir
// (a server, whose command line names its folder) is in a throttle's
// cgroup (internal/throttle names them joinbench-slow-PID).
func checkNoThrottleLeft(t *testing.T, sbDir string) {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		cmdline, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(cmdline), sbDir) {
			continue
		}
		groups, err := os.ReadFile(filepath.Join(filepath.Dir(p), "cgroup"))
		if err == nil && strings.Contains(string(groups), "joinbench-slow-") {
			t.Errorf("a server of the sandbox is still throttled (%s):\n%s", filepath.Dir(p), groups)
		}
	}
}

// verdictChange reads the cluster's change out of the lesson's verdict
// line: "... cluster throughput -35% [-43, -5] over 2 window(s), a drop
// (... ±5%)".
var verdictChange = regexp.MustCompile(`cluster throughput (\S+%(?: \[[-+0-9]+, [-+0-9]+\])?) over \d+ window\(s\), (a drop|no drop) \(.*A/A noise of the quiet windows ±(\d+)%\)`)

// checkVerdictAgreesWithTable checks that the verdict quotes the change
// of the table's cluster row and states the A/A noise, and calls it a drop
// exactly when the lesson's rule (experiment.Change.Drop with its 3% floor)
// says so: the change's whole interval lies below zero and its mean below
// -3%. The A/A noise is stated beside the verdict, not part of it: on a
// busy machine the halves of one quiet window differ by more than the
// throttle's whole effect.
func checkVerdictAgreesWithTable(t *testing.T, verdict, cluster string) {
	t.Helper()
	m := verdictChange.FindStringSubmatch(verdict)
	if m == nil {
		t.Fatalf("verdict %q does not say the cluster's change, a drop or not, and the noise", verdict)
	}
	change, drop := m[1], m[2] == "a drop"
	if !strings.Contains(cluster, change) {
		t.Errorf("the verdict says the cluster changed %s, its row says otherwise: %q", change, cluster)
	}
	nums := regexp.MustCompile(`[-+]?\d+`).FindAllString(change, -1)
	mean, _ := strconv.Atoi(nums[0])
	high := mean
	if len(nums) == 3 {
		high, _ = strconv.Atoi(nums[2])
	}
	// Both are rounded to whole percents: only a clear case is checked.
	if clearDrop := high <= -1 && mean <= -4; clearDrop && !drop {
		t.Errorf("change %s lies below zero and below -3%%, but the verdict says no drop: %q", change, verdict)
	}
	if clearNone := high >= 1 || mean >= -2; clearNone && drop {
		t.Errorf("change %s reaches zero or lies above -3%%, yet the verdict says a drop: %q", change, verdict)
	}
}

// restoreLessonArgs are the restore lesson's arguments the restore tests
// share (sandbox x under sbDir, node3 restored once per value, a short
// window on a small table), then extra.
func restoreLessonArgs(sbDir, outDir string, extra ...string) []string {
	return append([]string{"experiment", "restore", "--sandbox", "x", "--sandbox-dir", sbDir, "--out", outDir,
		"--node", "node3", "--repetitions", "1", "--window", "2s", "--warmup", "1s", "--threads", "2", "--table-size", "5000"}, extra...)
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
	code, stdout, stderr := runCapturedAll(t, restoreLessonArgs(sbDir, outDir, "--use-memory", "100M,2G", "-q")...)
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

// TestExperimentRestoreCapsThePrepare restores node3 of a real cluster
// with the prepares' reads capped: a bad cap is a usage error before
// anything is touched; each prepare is capped while it runs and the cap
// lifted after (its group gone, the ledger empty), the page says the cap,
// and the lesson's table restore_burst is dropped at its end. Mechanisms
// only: what the prepares then took depends on the machine.
func TestExperimentRestoreCapsThePrepare(t *testing.T) {
	needGalera(t)
	dir := t.TempDir()
	sbDir := filepath.Join(dir, "sandboxes")
	if err := os.MkdirAll(sbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := throttle.Check(throttle.IO, sbDir); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	startCluster(t, "x", sbDir, "64M")
	outDir := filepath.Join(dir, "out")
	args := restoreLessonArgs(sbDir, outDir, "--use-memory", "32M,2G", "--one-backup", "--backup-writers", "1")
	if code, _, stderr := runCapturedAll(t, append(args, "--prepare-read-iops=-1")...); code != 2 || !strings.Contains(stderr, "--prepare-read-iops -1") {
		t.Errorf("--prepare-read-iops -1: exit %d, %q; want 2 naming it", code, stderr)
	}
	code, stdout, stderr := runCapturedAll(t, append(args, "--prepare-read-iops", "500")...)
	if code != 0 {
		t.Fatalf("experiment restore: exit %d\n%s\n%s", code, stdout, stderr)
	}
	groups := regexp.MustCompile(`prepare's reads capped at 500 a second \(.*500 in (\S+)\)`).FindAllStringSubmatch(stderr, -1)
	if len(groups) != 2 || strings.Count(stderr, "prepare's read cap lifted") != 2 {
		t.Errorf("caps set %d and lifted %d times, want the 32M and the 2G prepare each:\n%s", len(groups), strings.Count(stderr, "prepare's read cap lifted"), stderr)
	}
	for _, g := range groups {
		if _, err := os.Stat(g[1]); !os.IsNotExist(err) {
			t.Errorf("the prepare's group %s is left (%v)", g[1], err)
		}
	}
	if left := ledgerFiles(filepath.Join(sbDir, "x")); len(left) > 0 {
		t.Errorf("ledger entries left: %v", left)
	}
	checkNoThrottleLeft(t, sbDir)
	if !strings.Contains(stderr, "restore_burst dropped") {
		t.Errorf("restore_burst not dropped:\n%s", stderr)
	}
	if !strings.Contains(stdout, "the prepares read from a disk held at 500 reads a second") || !strings.Contains(stdout, "disk reads/s") {
		t.Errorf("the page does not say the cap:\n%s", stdout)
	}
	for _, f := range []string{"restore.md", "restore.html"} {
		b, err := os.ReadFile(filepath.Join(outDir, f))
		if err != nil || !strings.Contains(string(b), "held at 500 reads a second (--prepare-read-iops") {
			t.Errorf("%s does not say the cap (%v)", f, err)
		}
	}
}

// TestExperimentRestoreJoins restores node3 of a real 3-node cluster
// with --join ist,sst: its join on the backup's position, then its
// rejoin with its position cleared, recognised as an SST; the page shows
// both, the phases file holds the SST's seconds and bytes, and a
// projection from it gives the join had it been an SST (the figures
// themselves depend on the machine).
func TestExperimentRestoreJoins(t *testing.T) {
	needGalera(t)
	dir := t.TempDir()
	sbDir := filepath.Join(dir, "sandboxes")
	startCluster(t, "x", sbDir, "64M")
	outDir := filepath.Join(dir, "out")
	code, stdout, stderr := runCapturedAll(t, restoreLessonArgs(sbDir, outDir, "--use-memory", "100M", "--join", "ist,sst", "-q")...)
	if code != 0 {
		t.Fatalf("experiment restore --join ist,sst: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"SST join (s)", "SST (MB/s)", "joined by SST (a full copy of "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the page lacks %q:\n%s", want, stdout)
		}
	}
	b, err := os.ReadFile(filepath.Join(outDir, "restore-phases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Restores []struct {
			Transfer    string  `json:"transfer"`
			SSTSeconds  float64 `json:"sst_seconds"`
			SSTTransfer float64 `json:"sst_transfer_seconds"`
			SSTStream   float64 `json:"sst_stream_seconds"`
			SSTBytes    int64   `json:"sst_bytes"`
		} `json:"restores"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Restores) != 1 || f.Restores[0].SSTSeconds <= 0 || f.Restores[0].SSTBytes <= 0 || f.Restores[0].SSTTransfer > f.Restores[0].SSTSeconds+1 ||
		f.Restores[0].SSTStream <= 0 || f.Restores[0].SSTStream > f.Restores[0].SSTTransfer+1 {
		t.Errorf("phases: %s", b)
	}
	html, err := os.ReadFile(filepath.Join(outDir, "restore.html"))
	if err != nil || !strings.Contains(string(html), "SST join (s)") || !strings.Contains(string(html), "rejoin by SST") {
		t.Errorf("restore.html lacks the SST join: %v", err)
	}
	code, stdout, stderr = runCapturedAll(t, "experiment", "restore", "--rates-from", outDir, "--out", filepath.Join(dir, "projection"),
		"--project-size", "10T", "--project-write-rate", "30MB/s")
	if code != 0 || !strings.Contains(stdout, "the join is an SST: ") || !strings.Contains(stdout, "MTTR if the join is an SST") {
		t.Errorf("projection: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
