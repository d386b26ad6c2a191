package action

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		offset time.Duration
		target string
		kind   *Kind
		job    Job
	}{
		{"30s@node2: sql: ALTER TABLE main1 ADD INDEX k (a, b)", 30 * time.Second, "node2", sqlKind,
			sqlJob{stmt: "ALTER TABLE main1 ADD INDEX k (a, b)"}},
		{"1m@all: rsu: ALTER TABLE t COMMENT 'a: b'", time.Minute, "all", rsuKind,
			rsuJob{stmt: "ALTER TABLE t COMMENT 'a: b'"}},
		{"5s@127.0.0.1:3307: exec: pt-online-schema-change --alter 'ADD INDEX k (a)' h={host},P={port},t=t --execute", 5 * time.Second,
			"127.0.0.1:3307", execKind, execJob{command: "pt-online-schema-change --alter 'ADD INDEX k (a)' h={host},P={port},t=t --execute"}},
		{"2s@1:chunked 500 limit:DELETE FROM t WHERE a < 10", 2 * time.Second, "1", chunkedKind,
			chunkedJob{size: 500, by: chunkByLimit, stmt: "DELETE FROM t WHERE a < 10", dml: mustSplit(t, "DELETE FROM t WHERE a < 10")}},
		{"2s@node1: chunked 500: UPDATE t SET a = a + 1", 2 * time.Second, "node1", chunkedKind,
			chunkedJob{size: 500, by: chunkByKey, stmt: "UPDATE t SET a = a + 1", dml: mustSplit(t, "UPDATE t SET a = a + 1")}},
		{"0s@node3: pause 3s", 0, "node3", pauseKind, pauseJob{stopped: 3 * time.Second}},
		{"10s@node3: lock 5s: main1, db.level1", 10 * time.Second, "node3", lockKind,
			lockJob{hold: 5 * time.Second, tables: []string{"main1", "db.level1"}}},
		{"10s@node3: restart", 10 * time.Second, "node3", restartKind, restartJob{}},
		{"10s@node3: restart 2s", 10 * time.Second, "node3", restartKind, restartJob{down: 2 * time.Second}},
		{"30s@node3: slow 21% io for 60s", 30 * time.Second, "node3", slowKind, slowJob{fraction: 0.21, resource: "io", hold: time.Minute}},
		{"30s@node3: slow 12.5 CPU 1m", 30 * time.Second, "node3", slowKind, slowJob{fraction: 0.125, resource: "cpu", hold: time.Minute}},
		{"30s@node3: slow 0% io for 10s", 30 * time.Second, "node3", slowKind, slowJob{fraction: 0, resource: "io", hold: 10 * time.Second}},
		{"20s@node2: crash", 20 * time.Second, "node2", crashKind, crashJob{}},
		{"20s@all: crash 5s", 20 * time.Second, "all", crashKind, crashJob{down: 5 * time.Second}},
	} {
		got, err := Parse(tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if got.Text != tc.spec || got.Offset != tc.offset || got.Target != tc.target || got.Kind != tc.kind ||
			!reflect.DeepEqual(got.Job, tc.job) || got.What() == "" {
			t.Errorf("%s:\n got %+v\nwant %v %s %s %+v", tc.spec, got, tc.offset, tc.target, tc.kind.Name, tc.job)
		}
	}
}

func mustSplit(t *testing.T, stmt string) chunkable {
	t.Helper()
	c, err := splitDML(stmt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseMistakes(t *testing.T) {
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
		"5s@node1 sql: SELECT 1":                      `missing ':' after the target? "node1 sql" is not an endpoint; write 5s@node1: sql ...`,
		"5s@127.0.0.1:3307 exec: true":                `"127.0.0.1:3307 exec" is not an endpoint; write 5s@127.0.0.1:3307: exec ...`,
		"1s@node2: slow 21% io":                       "a percentage, cpu or io, and a duration",
		"1s@node2: slow 100% io for 1s":               "less than 100",
		"1s@node2: slow -5% io for 1s":                "from 0",
		"1s@node2: slow 21% disk for 1s":              "neither cpu nor io",
		"1s@node2: slow 21% io for ever":              "not a positive duration",
		"1s@node2: slow 21% io for 1s: x":             "nothing after",
		"1s@node2: crash soon":                        "not a positive duration",
		"1s@all: slow 21% io for 1s":                  "crash acts on all endpoints at once",
	} {
		_, err := Parse(spec)
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a usage error saying %q", spec, err, want)
		}
	}
}

// The messages that list kinds come from the kinds list.
func TestParseMistakesListKinds(t *testing.T) {
	_, err := Parse("1s@node2: drop: x")
	if want := `unknown kind "drop": use sql, rsu, exec, chunked, pause, lock, restart, slow or crash`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = Parse("1s@all: lock 1s: t")
	if want := "only rsu runs on all endpoints (each in turn); name one endpoint for lock"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestParseAllWithFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "actions")
	os.WriteFile(f, []byte("# TOI, then chunks\n10s@node2: sql: ALTER TABLE t FORCE\n\n  20s@node1: chunked 100: DELETE FROM t\n"), 0o644)
	got, err := ParseAll([]string{"1s@node3: pause 1s"}, []string{f})
	if err != nil || len(got) != 3 || got[0].Kind != pauseKind || got[1].Kind != sqlKind || got[2].Kind != chunkedKind {
		t.Fatalf("%+v, %v", got, err)
	}
	os.WriteFile(f, []byte("10s@node2: sql: ALTER TABLE t FORCE\n20s@node1 pause\n"), 0o644)
	if _, err := ParseAll(nil, []string{f}); err == nil || !strings.Contains(err.Error(), f+":2:") {
		t.Errorf("got %v, want the file and line", err)
	}
}

func TestCheckOffsetsPastTheEnd(t *testing.T) {
	a, _ := Parse("10s@node1: pause 1s")
	if err := CheckOffsets([]Spec{a}, 10*time.Second); err == nil || !usage.Is(err) {
		t.Errorf("offset at the end of a 10s run: %v", err)
	}
	if err := CheckOffsets([]Spec{a}, 11*time.Second); err != nil {
		t.Error(err)
	}
	if err := CheckOffsets([]Spec{a}, 0); err != nil {
		t.Errorf("a run bounded by events only: %v", err)
	}
}
