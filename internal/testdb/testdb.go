// Package testdb gives integration tests a fresh database on the server named
// by JOINBENCH_TEST_DSN (the one .ci/run starts). Without that variable the
// test is skipped with a message saying how to run it, except under CI=true,
// where a missing server (or any other part a test needs) is a failure.
package testdb

import (
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// EnvVar names the server that integration tests use.
const EnvVar = "JOINBENCH_TEST_DSN"

// ServerDSN returns the configured DSN or skips the test (fails it in CI).
func ServerDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvVar)
	if dsn == "" {
		Skipf(t, "%s is not set: this test needs a MySQL-family server (make test starts a throwaway one; see also .ci/run)", EnvVar)
	}
	return dsn
}

// InCI reports whether the tests run under CI (CI=true), where every part a
// test needs (server, sandbox binary, browser) must be there.
func InCI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

// Skipf skips a test whose outside part (a server, a binary, a browser) is
// missing; under CI it fails instead, so that a suite cannot pass by
// skipping what it was meant to check.
func Skipf(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI=true, and: "+format, args...)
		return
	}
	t.Skipf(format, args...)
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9_]+`)

// Fresh creates (dropping any leftover) a database named jbtest_<name> and
// returns a DSN that uses it, with multiStatements off and parseTime on. The
// database is dropped when the test ends unless JOINBENCH_TEST_KEEP is set.
// Each test package must use its own name so packages can run in parallel.
func Fresh(t testing.TB, name string) string {
	t.Helper()
	return FreshOn(t, ServerDSN(t), name)
}

// FreshOn is Fresh on the server of serverDSN (a test's own server, see
// package testserver) instead of the shared one.
func FreshOn(t testing.TB, serverDSN, name string) string {
	t.Helper()
	cfg, err := mysql.ParseDSN(serverDSN)
	if err != nil {
		t.Fatalf("server DSN %q: %v", serverDSN, err)
	}
	db := "jbtest_" + unsafeChars.ReplaceAllString(strings.ToLower(name), "_")
	cfg.DBName = ""
	admin, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	for _, q := range []string{"DROP DATABASE IF EXISTS `" + db + "`", "CREATE DATABASE `" + db + "`"} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if os.Getenv("JOINBENCH_TEST_KEEP") == "" {
		t.Cleanup(func() {
			if c, err := sql.Open("mysql", cfg.FormatDSN()); err == nil {
				_, _ = c.Exec("DROP DATABASE IF EXISTS `" + db + "`")
				c.Close()
			}
		})
	}
	cfg.DBName = db
	cfg.ParseTime = true
	cfg.AllowAllFiles = true
	return cfg.FormatDSN()
}

// Open is Fresh plus sql.Open, closed at the end of the test.
func Open(t testing.TB, name string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", Fresh(t, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Ping(); err != nil {
		t.Fatalf("ping %s: %v", EnvVar, err)
	}
	return db
}

// StopServer stops the process of the server db is connected to with
// SIGSTOP, as a hung server, and returns the function that continues it
// (SIGCONT). It runs at the end of the test in any case, and by itself
// after limit, so that a test that hangs cannot leave the server stopped;
// continued reports whether that happened. The server must run on
// this machine (its pid file readable), else the test is skipped.
//
// Stop only a server of the test's own (testserver.Own): the packages'
// tests run at once on the shared server, and stopping it froze the
// others' statements for seconds (ab in lockstep saw slices without an
// execution). One test stops a given server at a time (a lock file named
// after its pid in the temporary folder), so that none continues it under
// another.
func StopServer(t testing.TB, db *sql.DB, limit time.Duration) (cont func(), continued func() bool) {
	t.Helper()
	var pidFile string
	if err := db.QueryRow("SELECT @@pid_file").Scan(&pidFile); err != nil {
		t.Fatalf("pid file of the test server: %v", err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		Skipf(t, "the test server's pid file cannot be read (a server on another machine?): %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		t.Fatalf("%s: not a pid: %q", pidFile, b)
	}
	lock, err := os.OpenFile(filepath.Join(os.TempDir(), "joinbench-test-stop-"+strconv.Itoa(pid)+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		lock.Close()
		t.Fatalf("lock the test server: %v", err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		lock.Close()
		Skipf(t, "cannot stop the test server (pid %d): %v", pid, err)
	}
	var once sync.Once
	var byLimit atomic.Bool
	cont = func() {
		once.Do(func() {
			if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
				t.Errorf("continue the test server (pid %d): %v", pid, err)
			}
			lock.Close() // releases the lock
		})
	}
	timer := time.AfterFunc(limit, func() { byLimit.Store(true); cont() })
	t.Cleanup(func() { timer.Stop(); cont() })
	return cont, byLimit.Load
}
