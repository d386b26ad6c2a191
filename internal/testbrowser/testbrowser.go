// Package testbrowser finds headless Chromium for the tests that open a
// page joinbench writes (the HTML report, the compare view, the lesson
// pages) in a browser. Without one a test is skipped, and under CI=true
// it fails (testdb.Skipf).
package testbrowser

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// DumpDOM opens page (a file) in headless Chromium and returns the DOM
// its scripts left and what Chromium logged; a script error fails the
// test.
func DumpDOM(t testing.TB, chromium, page string) (dom, log string) {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(chromium, Args(t, "--dump-dom", "file://"+page)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "Uncaught") {
		t.Errorf("script error:\n%s", stderr.String())
	}
	return string(out), stderr.String()
}

// Screenshot draws page (a file) in a window w by h pixels and returns
// the picture and the PNG it was written to.
func Screenshot(t testing.TB, chromium, page string, w, h int) (image.Image, string) {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(chromium, Args(t, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", w, h), "--hide-scrollbars", "file://"+page)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, b)
	}
	fh, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatalf("the screenshot %s: %v", shot, err)
	}
	return img, shot
}
