package compare

import (
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

func TestAANote(t *testing.T) {
	contents := func(level1Rows int64, indexes string) map[string]results.TableContents {
		return map[string]results.TableContents{
			"main1":  {Rows: 300, Checksum: "123456", Indexes: "i"},
			"level1": {Rows: level1Rows, Checksum: "9876" + indexes, Indexes: indexes},
		}
	}
	run := func(ep, host, version string) *results.Run {
		return &results.Run{Endpoints: []string{ep}, ClientHost: host, ServerVersion: version,
			ServerVars: map[string]string{"join_cache_level": "2"},
			Dataset:    &results.Dataset{Tables: 1, TableSize: 300, Seed: 1, Contents: contents(300, "a")}}
	}
	if n := AANote(run("127.0.0.1:3306", "h", "10.11.6"), run("127.0.0.1:3306", "h", "10.11.6")); !strings.Contains(n, "the same server (127.0.0.1:3306): an A/A comparison") {
		t.Errorf("one server: %q", n)
	}
	for name, cand := range map[string]*results.Run{
		"another port":    run("127.0.0.1:3307", "h", "10.11.6"),
		"another client":  run("127.0.0.1:3306", "other", "10.11.6"),
		"another version": run("127.0.0.1:3306", "h", "11.4.2"),
	} {
		if n := AANote(run("127.0.0.1:3306", "h", "10.11.6"), cand); n != "" {
			t.Errorf("%s: %q", name, n)
		}
	}
	// The same server, but not an A/A: the note names what differs.
	inserted := run("127.0.0.1:3306", "h", "10.11.6")
	inserted.Dataset.Contents = contents(305, "a")
	setting := run("127.0.0.1:3306", "h", "10.11.6")
	setting.ServerVars["join_cache_level"] = "8"
	dropped := run("127.0.0.1:3306", "h", "10.11.6")
	dropped.Dataset.Contents["level1"] = results.TableContents{Rows: 300, Checksum: "9876a", Indexes: "b"}
	older := run("127.0.0.1:3306", "h", "10.11.6")
	older.Dataset.Contents = nil
	held := run("127.0.0.1:3306", "h", "10.11.6")
	held.Replicate = &results.Replicate{Side: results.SideCandidate, HeldBack: 0.2}
	for name, c := range map[string]struct {
		cand *results.Run
		want string
	}{
		"rows inserted into level1": {inserted, "the data differ when each started (level1 300 vs 305 rows)"},
		"a setting changed":         {setting, "settings differ (join_cache_level 2 vs 8)"},
		"an index dropped":          {dropped, "the indexes of level1 differ"},
		"no digest":                 {older, "not digested on both sides"},
		"held back on purpose":      {held, "the candidate's answers were held back 20% of their server's time on purpose"},
	} {
		n := AANote(run("127.0.0.1:3306", "h", "10.11.6"), c.cand)
		if !strings.Contains(n, "not as an A/A comparison") || !strings.Contains(n, c.want) || strings.Contains(n, "an A/A comparison, where") {
			t.Errorf("%s: %q, want it to name %q", name, n, c.want)
		}
	}
}
