package action

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

func TestResolve(t *testing.T) {
	eps := []server.Endpoint{
		{Name: "127.0.0.1:4001", DSN: "root@tcp(127.0.0.1:4001)/jb", Node: "node1"},
		{Name: "127.0.0.1:4002", DSN: "root@tcp(127.0.0.1:4002)/jb", Node: "node2"},
	}
	parse := func(s ...string) []Spec {
		out, err := ParseAll(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	got, err := Resolve(parse("1s@node2: sql: SELECT 1", "1s@1: sql: SELECT 1", "1s@127.0.0.1:4002: sql: SELECT 1", "1s@all: rsu: SELECT 1"), eps)
	if err != nil {
		t.Fatal(err)
	}
	idx := func(a Action) (out []int) {
		for _, tg := range a.Targets {
			out = append(out, tg.Endpoint)
		}
		return out
	}
	if len(got) != 4 || idx(got[0])[0] != 1 || idx(got[1])[0] != 0 || idx(got[2])[0] != 1 || len(idx(got[3])) != 2 || got[3].Number != 4 {
		t.Errorf("resolved %+v", got)
	}
	if got[0].Targets[0].Conn.Addr != "127.0.0.1:4002" || got[0].Targets[0].Node != "node2" {
		t.Errorf("target %+v", got[0].Targets[0])
	}
	if _, err := Resolve(parse("1s@node3: sql: SELECT 1"), eps); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "node2 (2 127.0.0.1:4002)") {
		t.Errorf("unknown endpoint: %v", err)
	}
	if _, err := Resolve(parse("1s@node1: pause 1s"), eps); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "sandbox") {
		t.Errorf("pause without a process: %v", err)
	}
}

// fakeProcess is a server process for the checks made before a run.
type fakeProcess struct{ dataDir string }

func (p fakeProcess) PID() int        { return 0 }
func (p fakeProcess) DataDir() string { return p.dataDir }
func (p fakeProcess) Restart(context.Context, time.Duration) error {
	return errors.New("fake")
}
func (p fakeProcess) Crash(context.Context, time.Duration, bool) ([]server.Recovery, error) {
	return nil, errors.New("fake")
}
func (p fakeProcess) Ledger() ledger.Ledger { return nil }
func (p fakeProcess) Running() bool         { return false }
func (p fakeProcess) RestartWith(context.Context, []string, string) (func(context.Context) error, error) {
	return nil, errors.New("fake")
}

// A slow action this machine could not inject is refused before the run,
// in one line: here the node's data is on no disk (/proc), so no I/O
// limit can act on it.
func TestResolveRefusesASlowItCannotInject(t *testing.T) {
	eps := []server.Endpoint{{Name: "127.0.0.1:4001", DSN: "root@tcp(127.0.0.1:4001)/jb", Node: "node1", Process: fakeProcess{"/proc"}}}
	specs, err := ParseAll([]string{"1s@node1: slow 21% io for 10s"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Resolve(specs, eps)
	if err == nil || !usage.Is(err) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("slow io of a node on /proc: %v, want a one-line usage error", err)
	}
	if !strings.Contains(err.Error(), "no block device") && !strings.Contains(err.Error(), "cgroup") {
		t.Errorf("the refusal says neither what the machine lacks nor where the data is: %v", err)
	}
	// crash on all resolves to every endpoint.
	specs, _ = ParseAll([]string{"1s@all: crash"}, nil)
	if got, err := Resolve(specs, eps); err != nil || len(got[0].Targets) != 1 {
		t.Errorf("crash on all: %+v, %v", got, err)
	}
}
