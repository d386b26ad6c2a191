//go:build e2e && linux

package deploy

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
)

// imageEnvVar names the image to test, as podman knows it (make image
// prints it; .ci/run builds one and sets this).
const imageEnvVar = "JOINBENCH_TEST_IMAGE"

// TestImage runs the container image against the test server over the
// host network, as a user would: prepare, a short run writing Parquet to
// the results volume, and report reading that Parquet back, all inside
// the container as its non-root user.
func TestImage(t *testing.T) {
	image := os.Getenv(imageEnvVar)
	if image == "" {
		t.Skipf("%s is not set: build the image with make image and name it here to test it (.ci/run does)", imageEnvVar)
	}
	if _, err := exec.LookPath("podman"); err != nil {
		testdb.Skipf(t, "podman runs the image: %v (scripts/install-deps.sh image installs it)", err)
	}
	server := testdb.ServerDSN(t)
	cfg, err := mysql.ParseDSN(testdb.Fresh(t, "image"))
	if err != nil {
		t.Fatal(err)
	}
	conn := []string{"--dsn", server, "--database", cfg.DBName}

	label := podman(t, "image", "inspect", "--format", `{{index .Labels "org.opencontainers.image.version"}}`, image)
	if got := podman(t, "run", "--rm", image, "--version"); got != label {
		t.Errorf("the image is labelled version %q, its joinbench says %q", label, got)
	}

	volume := "joinbench-test-" + randomSuffix(t)
	podman(t, "volume", "create", volume)
	t.Cleanup(func() { _ = exec.Command("podman", "volume", "rm", "--force", volume).Run() })
	results := volume + ":/results"

	const events = 20
	podman(t, append([]string{"run", "--rm", "--network", "host", image,
		"prepare", "--quiet", "--tables", "1", "--table-size", "1000"}, conn...)...)
	podman(t, append([]string{"run", "--rm", "--network", "host", "-v", results, image,
		"run", "--quiet", "--tables", "1", "--table-size", "1000", "--tags", "inner",
		"--threads", "2", "--events", fmt.Sprint(events), "--run-id", "image", "--out", "/results"}, conn...)...)
	out := podman(t, "run", "--rm", "-v", results, image, "report", "--format", "json", "/results/run=image")

	var report struct {
		Runs []struct {
			Scenarios []struct {
				Scenario   string `json:"scenario"`
				Executions int64  `json:"executions"`
			} `json:"scenarios"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("report --format json: %v\n%s", err, out)
	}
	if len(report.Runs) != 1 || len(report.Runs[0].Scenarios) == 0 {
		t.Fatalf("report: want one run with scenarios, have\n%s", out)
	}
	for _, s := range report.Runs[0].Scenarios {
		if s.Executions <= 0 {
			t.Errorf("scenario %s: %d executions read back from the Parquet files", s.Scenario, s.Executions)
		}
	}
}

// podman runs podman with args and returns its standard output, trimmed;
// a failure ends the test with its standard error.
func podman(t *testing.T, args ...string) string {
	t.Helper()
	if args[0] == "run" {
		args = append([]string{"run"}, append(ulimits(), args[1:]...)...)
	}
	cmd := exec.Command("podman", args...)
	cmd.Env = podmanEnv(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}

// ulimits gives the container limits it can have on a host that does not
// let a process raise its limits (a container or VM without
// CAP_SYS_RESOURCE), where podman's defaults (1048576 files and processes
// for root) fail to start it: this process's open files, and processes up
// to the 32768 to which podman lowers its own limit.
func ulimits() []string {
	const (
		rlimitNPROC  = 6          // RLIMIT_NPROC, which the syscall package does not name
		rlimInfinity = ^uint64(0) // RLIM_INFINITY
		podmanNproc  = 32768
	)
	var flags []string
	var files, procs syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &files) == nil && files.Max != rlimInfinity {
		flags = append(flags, "--ulimit", fmt.Sprintf("nofile=%d:%d", files.Max, files.Max))
	}
	n := uint64(podmanNproc)
	if syscall.Getrlimit(rlimitNPROC, &procs) == nil {
		n = min(n, procs.Max)
	}
	return append(flags, "--ulimit", fmt.Sprintf("nproc=%d:%d", n, n))
}

func randomSuffix(t *testing.T) string {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// podmanEnv is this process's environment, with CONTAINERS_CONF naming a
// configuration of runc and the cgroupfs manager on a host whose cgroups
// are not a pure v2 hierarchy (v1, or hybrid: v1 controllers beside an
// empty v2 one), where crun, podman's default runtime on Debian, refuses
// to start a container ("cgroups in hybrid mode not supported") and the
// systemd manager may not be there. A CONTAINERS_CONF of the user's own
// is kept.
func podmanEnv(t *testing.T) []string {
	t.Helper()
	env := os.Environ()
	if os.Getenv("CONTAINERS_CONF") != "" {
		return env
	}
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		return env // pure v2: the defaults work
	}
	if _, err := exec.LookPath("runc"); err != nil {
		testdb.Skipf(t, "this host's cgroups are v1 or hybrid, where crun cannot start a container, and runc is not installed (scripts/install-deps.sh image installs it)")
	}
	conf := filepath.Join(t.TempDir(), "containers.conf")
	if err := os.WriteFile(conf, []byte("[engine]\nruntime = \"runc\"\ncgroup_manager = \"cgroupfs\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(env, "CONTAINERS_CONF="+conf)
}
