package main

import (
	"errors"
	"testing"
)

// TestRedactDSN: the password is masked wherever it appears, whatever it
// holds ('@' and ':' included), and nothing else of the message changes.
func TestRedactDSN(t *testing.T) {
	for _, tc := range []struct{ dsn, msg, want string }{
		{"root:s3cret@tcp(db:3306)/x", "login s3cret refused for root", "login **** refused for root"},
		{"root:p@ss:w@tcp(db:3306)/x", "bad password p@ss:w (using password: YES)", "bad password **** (using password: YES)"},
		{"root@tcp(db:3306)/x", "Access denied for user 'root'@'db'", "Access denied for user 'root'@'db'"},
	} {
		if got := redactDSN(errors.New(tc.msg), tc.dsn); got != tc.want {
			t.Errorf("redactDSN(%q, %q) = %q, want %q", tc.msg, tc.dsn, got, tc.want)
		}
	}
}
