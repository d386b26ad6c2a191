package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

func TestParseAction(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want ActionSpec
	}{
		{"30s@node2: sql: ALTER TABLE main1 ADD INDEX k (a, b)",
			ActionSpec{Offset: 30 * time.Second, Target: "node2", Kind: ActionSQL, Statement: "ALTER TABLE main1 ADD INDEX k (a, b)"}},
		{"1m@all: rsu: ALTER TABLE t COMMENT 'a: b'",
			ActionSpec{Offset: time.Minute, Target: "all", Kind: ActionRSU, Statement: "ALTER TABLE t COMMENT 'a: b'"}},
		{"5s@127.0.0.1:3307: exec: pt-online-schema-change --alter 'ADD INDEX k (a)' h={host},P={port},t=t --execute",
			ActionSpec{Offset: 5 * time.Second, Target: "127.0.0.1:3307", Kind: ActionExec,
				Command: "pt-online-schema-change --alter 'ADD INDEX k (a)' h={host},P={port},t=t --execute"}},
		{"2s@1:chunked 500 limit:DELETE FROM t WHERE a < 10",
			ActionSpec{Offset: 2 * time.Second, Target: "1", Kind: ActionChunked, ChunkSize: 500, ChunkBy: ChunkByLimit, Statement: "DELETE FROM t WHERE a < 10"}},
		{"2s@node1: chunked 500: UPDATE t SET a = a + 1",
			ActionSpec{Offset: 2 * time.Second, Target: "node1", Kind: ActionChunked, ChunkSize: 500, ChunkBy: ChunkByKey, Statement: "UPDATE t SET a = a + 1"}},
		{"0s@node3: pause 3s", ActionSpec{Target: "node3", Kind: ActionPause, For: 3 * time.Second}},
		{"10s@node3: lock 5s: main1, db.level1",
			ActionSpec{Offset: 10 * time.Second, Target: "node3", Kind: ActionLock, For: 5 * time.Second, Tables: []string{"main1", "db.level1"}}},
		{"10s@node3: restart", ActionSpec{Offset: 10 * time.Second, Target: "node3", Kind: ActionRestart}},
		{"10s@node3: restart 2s", ActionSpec{Offset: 10 * time.Second, Target: "node3", Kind: ActionRestart, For: 2 * time.Second}},
	} {
		got, err := ParseAction(tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		tc.want.Text = tc.spec
		if got.What() == "" || !equalSpec(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.spec, got, tc.want)
		}
	}
}

func equalSpec(a, b ActionSpec) bool {
	return a.Text == b.Text && a.Offset == b.Offset && a.Target == b.Target && a.Kind == b.Kind && a.Statement == b.Statement &&
		a.Command == b.Command && strings.Join(a.Tables, "|") == strings.Join(b.Tables, "|") && a.For == b.For &&
		a.ChunkSize == b.ChunkSize && a.ChunkBy == b.ChunkBy
}

func TestParseActionMistakes(t *testing.T) {
	for spec, want := range map[string]string{
		"node2: sql: SELECT 1":                        "OFFSET@ENDPOINT",
		"soon@node2: sql: SELECT 1":                   "not a duration",
		"1s@node2":                                    "KIND",
		"1s@: sql: x":                                 "no endpoint",
		"1s@node2: drop: x":                           "unknown kind",
		"1s@node2: sql":                               "needs the statement",
		"1s@node2: pause":                             "one duration",
		"1s@node2: pause 3s: x":                       "nothing after",
		"1s@node2: lock 3s":                           "tables to lock",
		"1s@node2: chunked: DELETE FROM t":            "chunk size",
		"1s@node2: chunked 0: DELETE FROM t":          "positive number",
		"1s@node2: chunked 10 by: DELETE FROM t":      "pk or by limit",
		"1s@node2: chunked 10: SELECT 1":              "DELETE or UPDATE",
		"1s@node2: chunked 10: DELETE FROM t LIMIT 5": "remove the statement's LIMIT",
		"1s@all: sql: ALTER TABLE t FORCE":            "only rsu",
	} {
		_, err := ParseAction(spec)
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a usage error saying %q", spec, err, want)
		}
	}
}

func TestParseActionsFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "actions")
	os.WriteFile(f, []byte("# TOI, then chunks\n10s@node2: sql: ALTER TABLE t FORCE\n\n  20s@node1: chunked 100: DELETE FROM t\n"), 0o644)
	got, err := ParseActions([]string{"1s@node3: pause 1s"}, []string{f})
	if err != nil || len(got) != 3 || got[0].Kind != ActionPause || got[1].Kind != ActionSQL || got[2].Kind != ActionChunked {
		t.Fatalf("%+v, %v", got, err)
	}
	os.WriteFile(f, []byte("10s@node2: sql: ALTER TABLE t FORCE\n20s@node1 pause\n"), 0o644)
	if _, err := ParseActions(nil, []string{f}); err == nil || !strings.Contains(err.Error(), f+":2:") {
		t.Errorf("got %v, want the file and line", err)
	}
}

func TestCheckActionsPastTheEnd(t *testing.T) {
	a, _ := ParseAction("10s@node1: pause 1s")
	if err := checkActions([]ActionSpec{a}, 10*time.Second); err == nil || !usage.Is(err) {
		t.Errorf("offset at the end of a 10s run: %v", err)
	}
	if err := checkActions([]ActionSpec{a}, 11*time.Second); err != nil {
		t.Error(err)
	}
	if err := checkActions([]ActionSpec{a}, 0); err != nil {
		t.Errorf("a run bounded by events only: %v", err)
	}
}

func TestResolveActions(t *testing.T) {
	eps := []server.Endpoint{
		{Name: "127.0.0.1:4001", DSN: "root@tcp(127.0.0.1:4001)/jb", Node: "node1"},
		{Name: "127.0.0.1:4002", DSN: "root@tcp(127.0.0.1:4002)/jb", Node: "node2"},
	}
	parse := func(s ...string) []ActionSpec {
		out, err := ParseActions(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	got, err := ResolveActions(parse("1s@node2: sql: SELECT 1", "1s@1: sql: SELECT 1", "1s@127.0.0.1:4002: sql: SELECT 1", "1s@all: rsu: SELECT 1"), eps)
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
	if _, err := ResolveActions(parse("1s@node3: sql: SELECT 1"), eps); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "node2 (2 127.0.0.1:4002)") {
		t.Errorf("unknown endpoint: %v", err)
	}
	if _, err := ResolveActions(parse("1s@node1: pause 1s"), eps); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "sandbox") {
		t.Errorf("pause without a process: %v", err)
	}
}

func TestSplitDML(t *testing.T) {
	for stmt, want := range map[string]chunkable{
		"DELETE FROM main1 WHERE id > 10;": {Verb: "DELETE", Table: "main1", Head: "DELETE FROM main1", Cond: "id > 10"},
		"delete low_priority from `db`.`t``x` where a = 'WHERE ' and (b or c)": {Verb: "DELETE", Schema: "db", Table: "t`x",
			Head: "delete low_priority from `db`.`t``x`", Cond: "a = 'WHERE ' and (b or c)"},
		"DELETE FROM t": {Verb: "DELETE", Table: "t", Head: "DELETE FROM t"},
		"UPDATE t SET a = (SELECT 1 LIMIT 1) WHERE b": {Verb: "UPDATE", Table: "t", Head: "UPDATE t SET a = (SELECT 1 LIMIT 1)", Cond: "b"},
		"UPDATE t SET a = 1, b = 2":                   {Verb: "UPDATE", Table: "t", Head: "UPDATE t SET a = 1, b = 2"},
	} {
		got, err := splitDML(stmt)
		if err != nil || got != want {
			t.Errorf("%s:\n got %+v, %v\nwant %+v", stmt, got, err, want)
		}
	}
	c, _ := splitDML("DELETE FROM t WHERE a OR b")
	if q := c.withCond("id >= 1 AND id < 3"); q != "DELETE FROM t WHERE (a OR b) AND id >= 1 AND id < 3" {
		t.Errorf("withCond: %s", q)
	}
	for _, stmt := range []string{"UPDATE a, b SET a.x = b.x", "DELETE a FROM a JOIN b", "DELETE FROM t ORDER BY id", "UPDATE t JOIN u SET x = 1",
		"DELETE FROM t USING t, u", "DELETE FROM t WHERE", "UPDATE t", "DELETE FROM t WHERE a = 'x"} {
		if _, err := splitDML(stmt); err == nil {
			t.Errorf("%s: no error", stmt)
		}
	}
}
