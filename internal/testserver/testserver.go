// Package testserver starts a throwaway MySQL-family server of a test's
// own, for the tests that stop, break or kill their server: the shared
// test server (JOINBENCH_TEST_DSN) serves every package's tests at once,
// and a server stopped under them stalls them all.
package testserver

import (
	"context"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
)

// Own starts a sandbox server from the installed binary, with a small
// buffer pool and redo log (a test's data is small; the sandbox default
// redo log alone is 1 GiB on disk), in a temporary folder, and returns
// its DSN without a database (testdb.FreshOn makes one). The server is
// stopped when the test ends. Without a server binary the test is skipped,
// or fails under CI.
func Own(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, err := sandbox.FindBinary(ctx, "")
	if err != nil {
		testdb.Skipf(t, "a test server of its own: %v", err)
	}
	s, err := sandbox.Start(ctx, sandbox.Config{
		Binary: bin, Dir: t.TempDir(), BufferPoolSize: "128M",
		ServerArgs: []string{"--innodb-log-file-size=48M"},
	})
	if err != nil {
		t.Fatalf("start a test server of its own: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := s.Stop(ctx); err != nil {
			t.Errorf("stop the test's own server: %v", err)
		}
	})
	return s.DSN("")
}
