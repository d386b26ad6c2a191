package action

import (
	"strings"
	"testing"

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
