// Package testbrowser finds headless Chromium for the tests that open a
// page joinbench writes (the HTML report, the compare view, the lesson
// pages) in a browser. Without one a test is skipped, and under CI=true
// it fails (testdb.Skipf).
package testbrowser

import (
	"os/exec"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
)

// Chromium is the path of a Chromium binary; what names what the test
// did not check without it.
func Chromium(t testing.TB, what string) string {
	t.Helper()
	for _, c := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	testdb.Skipf(t, "chromium is not installed: %s was not checked in a browser (apt-get install chromium)", what)
	return ""
}

// Args are the flags of a headless run with a profile of its own and no
// background traffic, then extra.
func Args(t testing.TB, extra ...string) []string {
	return append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir(),
		"--enable-logging=stderr", "--v=0"}, extra...)
}
