//go:build e2e

package main

import (
	"context"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
)

// needGalera skips a cluster test under -short, and where no server
// binary with Galera is installed (a failure under CI=true).
func needGalera(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a 3-node cluster; skipped with -short")
	}
	bin, err := sandbox.FindBinary(context.Background(), "")
	if err != nil {
		testdb.Skipf(t, "%v", err)
	}
	if err := sandbox.CheckGalera(bin); err != nil {
		testdb.Skipf(t, "%v", err)
	}
}

// startCluster starts a 3-node cluster sandbox named name under sbDir,
// stopped when the test ends, and returns its nodes' DSNs.
func startCluster(t *testing.T, name, sbDir, bufferPool string) []string {
	t.Helper()
	code, out := runCaptured(t, "sandbox", "start", "--name", name, "--galera", "3", "--sandbox-dir", sbDir, "--buffer-pool-size", bufferPool, "-q")
	t.Cleanup(func() { runCaptured(t, "sandbox", "stop", "--name", name, "--sandbox-dir", sbDir, "-q") })
	if code != 0 {
		t.Fatalf("sandbox start --galera 3: exit %d\n%s", code, out)
	}
	dsns := strings.Fields(out)
	if len(dsns) != 3 {
		t.Fatalf("sandbox start printed %q, want 3 DSNs", out)
	}
	return dsns
}
