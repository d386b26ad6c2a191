package testdb

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that notes whether the test was failed or
// skipped, without stopping the goroutine as the real ones do.
type recorder struct {
	testing.TB
	failed, skipped string
}

func (r *recorder) Helper()                         {}
func (r *recorder) Fatalf(f string, args ...any)    { r.failed = fmt.Sprintf(f, args...) }
func (r *recorder) Skipf(f string, args ...any)     { r.skipped = fmt.Sprintf(f, args...) }
func (r *recorder) Fatal(args ...any)               { r.failed = fmt.Sprint(args...) }
func (r *recorder) Logf(format string, args ...any) {}

func TestSkipfFailsUnderCI(t *testing.T) {
	t.Setenv("CI", "true")
	r := &recorder{}
	Skipf(r, "no %s", "server")
	if r.failed == "" || r.skipped != "" {
		t.Fatalf("under CI=true: failed %q, skipped %q; want a failure", r.failed, r.skipped)
	}
}

func TestSkipfSkipsOutsideCI(t *testing.T) {
	for _, ci := range []string{"", "false", "0"} {
		t.Setenv("CI", ci)
		r := &recorder{}
		Skipf(r, "no %s", "server")
		if r.skipped != "no server" || r.failed != "" {
			t.Fatalf("CI=%q: failed %q, skipped %q; want a skip", ci, r.failed, r.skipped)
		}
	}
}

func TestServerDSNFailsUnderCIWithoutServer(t *testing.T) {
	t.Setenv("CI", "true")
	t.Setenv(EnvVar, "")
	r := &recorder{}
	ServerDSN(r)
	if r.failed == "" {
		t.Fatal("a missing server under CI=true did not fail the test")
	}
}
