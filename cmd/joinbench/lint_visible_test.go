package main

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
)

// TestLintTablesNotVisible: lint against a server as a user that sees one
// table says once that the others are not visible to this user, instead
// of an unknown table per use; a user with SELECT on the database lints
// as before.
func TestLintTablesNotVisible(t *testing.T) {
	dsn := prepareOn(t, testdb.Fresh(t, "cmd_lint_visible"))
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	root, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	users := map[string]string{"jb_one_table": "SELECT ON `" + cfg.DBName + "`.main1", "jb_whole_db": "SELECT ON `" + cfg.DBName + "`.*"}
	for user, grant := range users {
		for _, q := range []string{"DROP USER IF EXISTS " + user, "CREATE USER " + user + " IDENTIFIED BY 'pw'", "GRANT " + grant + " TO " + user} {
			if _, err := root.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		t.Cleanup(func() { root.Exec("DROP USER IF EXISTS " + user) })
	}
	as := func(user string) string {
		c := cfg.Clone()
		c.User, c.Passwd = user, "pw"
		return c.FormatDSN()
	}
	code, _, stderr := runCapturedAll(t, "lint", "-q", "--dsn", as("jb_one_table"))
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 2 || len(lines) != 1 || !strings.Contains(stderr, "not visible to this user (jb_one_table@% has no SELECT on "+cfg.DBName+".*") {
		t.Errorf("one table: exit %d\n%s", code, stderr)
	}
	if code, out, stderr := runCapturedAll(t, "lint", "-q", "--dsn", as("jb_whole_db")); code != 0 || strings.Contains(out+stderr, "unknown table") {
		t.Errorf("the whole database: exit %d\n%s%s", code, out, stderr)
	}
}
