package throttle

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRoot points /proc and /sys at a tree of the test's own, holding
// files, for the time of the test.
func fakeRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := fsRoot
	fsRoot = root
	t.Cleanup(func() { fsRoot = old })
	return root
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// A v1 machine (this one's kind): cpu and blkio on their own mounts, the
// group made under the one the process is in, limits in the v1 files.
func TestV1Limits(t *testing.T) {
	root := fakeRoot(t, map[string]string{
		"proc/self/mountinfo": "30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n" +
			"31 25 0:27 / /sys/fs/cgroup/blkio rw,relatime shared:10 - cgroup cgroup rw,blkio\n" +
			"32 25 0:28 / /sys/fs/cgroup/unified rw,relatime shared:11 - cgroup2 cgroup2 rw\n",
		"sys/fs/cgroup/unified/cgroup.controllers": "hugetlb\n",
		"proc/42/cgroup":                       "7:blkio:/svc\n1:cpu:/\n0::/\n",
		"sys/fs/cgroup/blkio/svc/cgroup.procs": "",
		"sys/fs/cgroup/cpu/cgroup.procs":       "",
	})
	h, err := findHierarchy(IO)
	if err != nil || h.v2 || h.mount != filepath.Join(root, "sys/fs/cgroup/blkio") {
		t.Fatalf("io: %+v, %v; want v1 blkio", h, err)
	}
	g, err := join(h, 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "sys/fs/cgroup/blkio/svc/joinbench-slow-42"); g.dir != want || readFile(t, filepath.Join(g.dir, "cgroup.procs")) != "42" {
		t.Fatalf("group %s, want %s holding 42", g.dir, want)
	}
	dev := Device{254, 0}
	if err := g.setLimit(IO, dev, Usage{WriteOps: 790.4, WriteBytes: 1e6}); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"blkio.throttle.write_iops_device": "254:0 790", "blkio.throttle.write_bps_device": "254:0 1000000",
		"blkio.throttle.read_iops_device": "254:0 0", "blkio.throttle.read_bps_device": "254:0 0",
	} {
		if got := readFile(t, filepath.Join(g.dir, file)); got != want {
			t.Errorf("%s = %q, want %q (0: no limit where nothing was measured)", file, got, want)
		}
	}
	if err := g.lift(IO, dev); err != nil || readFile(t, filepath.Join(g.dir, "blkio.throttle.write_iops_device")) != "254:0 0" {
		t.Errorf("lift: %v", err)
	}

	// A second limit on the same process, while the first holds, is
	// refused: leaving, either would undo the other.
	if err := os.WriteFile(filepath.Join(root, "proc/42/cgroup"), []byte("7:blkio:/svc/joinbench-slow-42\n1:cpu:/\n0::/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := join(h, 42, nil); err == nil || !strings.Contains(err.Error(), "limited already") {
		t.Errorf("a second limit: %v", err)
	}

	hc, err := findHierarchy(CPU)
	if err != nil || hc.v2 {
		t.Fatalf("cpu: %+v, %v", hc, err)
	}
	gc, err := join(hc, 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := gc.setLimit(CPU, Device{}, Usage{CPU: 0.395}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(gc.dir, "cpu.cfs_quota_us")); got != "39500" {
		t.Errorf("quota %s µs, want 39500 (0.395 of a 100 ms period)", got)
	}
}

// A v2 machine: one hierarchy, the group made under its root with the
// controller enabled there, limits in io.max and cpu.max.
func TestV2Limits(t *testing.T) {
	root := fakeRoot(t, map[string]string{
		"proc/self/mountinfo":                                "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
		"sys/fs/cgroup/cgroup.controllers":                   "cpuset cpu io memory pids\n",
		"sys/fs/cgroup/cgroup.subtree_control":               "cpu memory\n",
		"proc/42/cgroup":                                     "0::/system.slice/db.service\n",
		"sys/fs/cgroup/system.slice/db.service/cgroup.procs": "42\n",
	})
	h, err := findHierarchy(IO)
	if err != nil || !h.v2 {
		t.Fatalf("%+v, %v; want v2", h, err)
	}
	g, err := join(h, 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.dir != filepath.Join(root, "sys/fs/cgroup/joinbench-slow-42") || g.from != filepath.Join(root, "sys/fs/cgroup/system.slice/db.service") {
		t.Errorf("group %s from %s", g.dir, g.from)
	}
	if got := readFile(t, filepath.Join(root, "sys/fs/cgroup/cgroup.subtree_control")); got != "+io" {
		t.Errorf("subtree_control written %q, want +io", got)
	}
	if err := g.setLimit(IO, Device{8, 0}, Usage{ReadOps: 10, WriteBytes: 2e6}); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, filepath.Join(g.dir, "io.max")), "8:0 rbps=max wbps=2000000 riops=10 wiops=max"; got != want {
		t.Errorf("io.max %q, want %q", got, want)
	}
	if err := g.setLimit(CPU, Device{}, Usage{CPU: 1.5}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(g.dir, "cpu.max")); got != "150000 100000" {
		t.Errorf("cpu.max %q", got)
	}
	os.WriteFile(filepath.Join(g.dir, "io.stat"), []byte("8:0 rbytes=4096 wbytes=81920 rios=1 wios=20 dbytes=0 dios=0\n9:0 rbytes=1 wbytes=1 rios=1 wios=1\n"), 0o644)
	u, err := g.ioUsage(Device{8, 0})
	if err != nil || u != (Usage{ReadOps: 1, WriteOps: 20, ReadBytes: 4096, WriteBytes: 81920}) {
		t.Errorf("io.stat read as %+v, %v", u, err)
	}
}

// Neither kind of hierarchy: the refusal says what is missing.
func TestNoController(t *testing.T) {
	fakeRoot(t, map[string]string{
		"proc/self/mountinfo":              "30 25 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
		"sys/fs/cgroup/cgroup.controllers": "memory pids\n",
	})
	for _, r := range []Resource{CPU, IO} {
		err := Check(r, t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "no cgroup") {
			t.Errorf("%s: %v, want a refusal naming the missing controller", r, err)
		}
	}
}

func TestV1Statistics(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "blkio.throttle.io_service_bytes"), []byte("254:0 Read 8192\n254:0 Write 65536\n254:0 Sync 1\n254:0 Total 73728\n7:0 Write 5\nTotal 73733\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "blkio.throttle.io_serviced"), []byte("254:0 Read 2\n254:0 Write 8\n254:0 Total 10\nTotal 10\n"), 0o644)
	g := &group{h: hierarchy{controller: "blkio"}, dir: dir}
	u, err := g.ioUsage(Device{254, 0})
	if err != nil || u != (Usage{ReadOps: 2, WriteOps: 8, ReadBytes: 8192, WriteBytes: 65536}) {
		t.Errorf("%+v, %v", u, err)
	}
}

// The controller brings a process that waits for every operation (qd 1:
// under a cap of L per second its rate is 1/(latency + 1/L)) to its
// target, where a cap at the target itself would take away far more.
func TestControllerReachesTheTarget(t *testing.T) {
	const unthrottled = 1000.0 // ops/s: 1 ms each
	achieved := func(limit float64) float64 { return 1 / (1/unthrottled + 1/limit) }
	target := Usage{WriteOps: 0.79 * unthrottled}
	if static := achieved(target.WriteOps); static > 0.5*unthrottled {
		t.Fatalf("model: a cap at the target gives %.0f", static)
	}
	c := newController(target)
	for range 12 {
		c.observe(IO, Usage{WriteOps: achieved(c.limit().WriteOps)})
	}
	if got := achieved(c.limit().WriteOps); math.Abs(got/target.WriteOps-1) > 0.03 {
		t.Errorf("after 12 s the process does %.0f/s, want %.0f", got, target.WriteOps)
	}
	// Its demand falls to nothing: the limit loosens, slowly, within
	// bounds.
	c.observe(IO, Usage{})
	if c.scale > 1.5*5 {
		t.Errorf("scale %v after one second without demand: loosened too fast", c.scale)
	}
	for range 20 {
		c.observe(IO, Usage{})
	}
	if math.Abs(c.scale-maxScale) > 1e-6 {
		t.Errorf("scale %v with no demand, want %v", c.scale, maxScale)
	}
}

// A process with many operations in flight does what the cap lets it: the
// first cap is the target, and it stays there.
func TestControllerKeepsACapThatHolds(t *testing.T) {
	c := newController(Usage{CPU: 0.5})
	for range 5 {
		c.observe(CPU, Usage{CPU: math.Min(1, c.limit().CPU)})
	}
	if math.Abs(c.scale-1) > 1e-9 {
		t.Errorf("scale %v, want 1", c.scale)
	}
}

// The group is noted before it is made, so that a caller killed between
// the two leaves a note of it; a join that fails takes its note back.
func TestJoinRecordsBeforeMaking(t *testing.T) {
	root := fakeRoot(t, map[string]string{
		"proc/self/mountinfo":                "30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n",
		"proc/42/cgroup":                     "1:cpu:/svc\n",
		"sys/fs/cgroup/cpu/svc/cgroup.procs": "",
	})
	h, err := findHierarchy(CPU)
	if err != nil {
		t.Fatal(err)
	}
	var noted, from string
	var existed bool
	removed := 0
	record := func(group, f string) (func() error, error) {
		noted, from = group, f
		_, err := os.Stat(group)
		existed = err == nil
		return func() error { removed++; return nil }, nil
	}
	g, err := join(h, 42, record)
	if err != nil {
		t.Fatal(err)
	}
	if noted != g.dir || from != filepath.Join(root, "sys/fs/cgroup/cpu/svc") || existed {
		t.Fatalf("noted %s from %s (existed %v), group %s", noted, from, existed, g.dir)
	}
	// A second join of the same pid fails at mkdir (the group exists):
	// its note goes.
	if err := os.WriteFile(filepath.Join(root, "proc/42/cgroup"), []byte("1:cpu:/svc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := join(h, 42, record); err == nil || removed != 1 {
		t.Fatalf("failed join: err %v, notes removed %d", err, removed)
	}
	if err := Release(filepath.Join(root, "sys/fs/cgroup/cpu/svc/other"), from); err == nil {
		t.Errorf("Release of a group joinbench did not make: no error")
	}
}
