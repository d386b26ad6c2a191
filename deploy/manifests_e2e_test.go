//go:build e2e

// Package deploy holds the container image (scripts/image.sh builds it
// with buildah, the Dockerfile with a registry at hand) and, in the module
// deploy/kubernetes, the Kubernetes manifests. This test runs that
// module's tests from the main suite, so CI checks the manifests while the
// main module does not depend on the Kubernetes libraries; TestImage runs
// a built image against the test server.
package deploy

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestKubernetesManifests(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the manifests are checked by the deploy/kubernetes module's own tests")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to test the deploy/kubernetes module: %v", err)
	}
	cmd := exec.Command(goCmd, "test", "-count=1", "./...")
	cmd.Dir = "kubernetes"
	// GOFLAGS of the outer run (e.g. -race) are not this module's business.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in deploy/kubernetes: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok") {
		t.Fatalf("go test in deploy/kubernetes ran no test:\n%s", out)
	}
}
