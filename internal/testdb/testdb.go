// Package testdb gives integration tests a fresh database on the server named
// by JOINBENCH_TEST_DSN (the one .ci/run starts). Without that variable the
// test is skipped with a message saying how to run it, except under CI=true,
// where a missing server (or any other part a test needs) is a failure.
package testdb

import (
	"database/sql"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

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
	cfg, err := mysql.ParseDSN(ServerDSN(t))
	if err != nil {
		t.Fatalf("%s: %v", EnvVar, err)
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
