package load

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/usage"
)

// checked returns opts as Prepare hands them to plan.
func checked(t *testing.T, opts PrepareOptions) PrepareOptions {
	t.Helper()
	if err := opts.check(); err != nil {
		t.Fatal(err)
	}
	return opts
}

// describe writes a plan as one line per table, range and index job, so
// that tests read as what Prepare will do.
func describe(p *loadPlan) []string {
	var out []string
	for _, t := range p.tables {
		var do []string
		if t.clear != "" {
			do = append(do, t.clear)
		}
		if t.drop {
			do = append(do, "DROP")
		}
		switch t.create {
		case "":
		case t.Create:
			do = append(do, "CREATE full")
		case t.CreateBare:
			do = append(do, "CREATE bare")
		default:
			do = append(do, "CREATE ?")
		}
		if t.dropIndexes != "" {
			do = append(do, "DROP INDEXES")
		}
		if len(do) == 0 {
			do = append(do, "keep")
		}
		bare := ""
		if t.bare {
			bare = ", indexes after"
		}
		out = append(out, fmt.Sprintf("%s: %s; rows %d..%d%s", t.Name, strings.Join(do, ", "), t.from, t.to, bare))
	}
	for _, r := range p.ranges {
		out = append(out, fmt.Sprintf("range %s %d..%d", p.tables[r.table].Name, r.from, r.to))
	}
	for _, t := range p.indexAfter {
		out = append(out, "index after "+t.Name)
	}
	if len(p.analyze) > 0 {
		out = append(out, "analyze "+strings.Join(p.analyze, ","))
	}
	return out
}

func report(existing []string, bare ...string) *serverReport {
	r := &serverReport{Info: ServerInfo{LocalInfile: true, MaxPacket: 64 << 20}, Database: "jb", Tables: existing, Bare: map[string]bool{}}
	for _, n := range existing {
		r.Bare[n] = slices.Contains(bare, n)
	}
	return r
}

var allTables = []string{"main1", "level1", "level2", "level3", "level4", "level5"}

func TestPlan(t *testing.T) {
	base := PrepareOptions{Gen: ddl.GenOptions{Seed: 1, TableSize: 1000}, Threads: 2, ChunkSize: 300}
	for _, tc := range []struct {
		name string
		mod  func(*PrepareOptions)
		rep  *serverReport
		want []string
	}{{
		name: "fresh database: the first table of each kind probes the indexes",
		rep:  report(nil),
		want: []string{
			"main1: CREATE full, DROP INDEXES; rows 1..1000, indexes after",
			"level1: CREATE full, DROP INDEXES; rows 1..1000, indexes after",
			"level2: CREATE bare; rows 1..1000, indexes after",
			"level3: CREATE bare; rows 1..1000, indexes after",
			"level4: CREATE bare; rows 1..1000, indexes after",
			"level5: CREATE bare; rows 1..1000, indexes after",
			// 6 tables for 2 threads: one range each
			"range main1 1..1000", "range level1 1..1000", "range level2 1..1000",
			"range level3 1..1000", "range level4 1..1000", "range level5 1..1000",
			"analyze main1,level1,level2,level3,level4,level5",
		},
	}, {
		name: "indexes during the load, no analyze",
		mod:  func(o *PrepareOptions) { o.IndexesDuringLoad, o.NoAnalyze = true, true },
		rep:  report(nil),
		want: []string{
			"main1: CREATE full; rows 1..1000", "level1: CREATE full; rows 1..1000",
			"level2: CREATE full; rows 1..1000", "level3: CREATE full; rows 1..1000",
			"level4: CREATE full; rows 1..1000", "level5: CREATE full; rows 1..1000",
			"range main1 1..1000", "range level1 1..1000", "range level2 1..1000",
			"range level3 1..1000", "range level4 1..1000", "range level5 1..1000",
		},
	}, {
		name: "recreate drops only the tables that exist",
		mod:  func(o *PrepareOptions) { o.Recreate, o.NoAnalyze = true, true },
		rep:  report([]string{"main1", "level3"}),
		want: []string{
			"main1: DROP, CREATE full, DROP INDEXES; rows 1..1000, indexes after",
			"level1: CREATE full, DROP INDEXES; rows 1..1000, indexes after",
			"level2: CREATE bare; rows 1..1000, indexes after",
			"level3: DROP, CREATE bare; rows 1..1000, indexes after",
			"level4: CREATE bare; rows 1..1000, indexes after",
			"level5: CREATE bare; rows 1..1000, indexes after",
			"range main1 1..1000", "range level1 1..1000", "range level2 1..1000",
			"range level3 1..1000", "range level4 1..1000", "range level5 1..1000",
		},
	}, {
		name: "resume after a partial load: earlier tables kept, the resumed one keeps its first rows, later ones emptied or created",
		mod:  func(o *PrepareOptions) { o.FromTable, o.FromRow, o.Threads, o.NoAnalyze = "level2", 401, 3, true },
		rep:  report([]string{"main1", "level1", "level2", "level3"}, "level2", "level3"),
		want: []string{
			"level2: DELETE FROM `level2` WHERE id >= 401; rows 401..1000, indexes after",
			"level3: TRUNCATE TABLE `level3`; rows 1..1000, indexes after",
			// level4 is the first level table this load creates: it probes
			"level4: CREATE full, DROP INDEXES; rows 1..1000, indexes after",
			"level5: CREATE bare; rows 1..1000, indexes after",
			// 4 tables for 3 threads: each split into at most 3 ranges,
			// and no more than it has chunks
			"range level2 401..700", "range level2 701..1000",
			"range level3 1..334", "range level3 335..668", "range level3 669..1000",
			"range level4 1..334", "range level4 335..668", "range level4 669..1000",
			"range level5 1..334", "range level5 335..668", "range level5 669..1000",
		},
	}, {
		name: "resume: a kept table that lacks its secondary indexes gets them after the load; one that has them is reloaded with them",
		mod:  func(o *PrepareOptions) { o.FromTable, o.NoAnalyze = "level4", true },
		rep:  report(allTables, "level3"),
		want: []string{
			"level4: DELETE FROM `level4` WHERE id >= 1; rows 1..1000",
			"level5: TRUNCATE TABLE `level5`; rows 1..1000",
			"range level4 1..500", "range level4 501..1000",
			"range level5 1..500", "range level5 501..1000",
			"index after level3",
		},
	}, {
		name: "resume after every row was in, while indexing: nothing to load, the indexes after",
		mod:  func(o *PrepareOptions) { o.FromTable, o.FromRow = "level5", 1001 },
		rep:  report(allTables, "level5"),
		want: []string{
			"level5: DELETE FROM `level5` WHERE id >= 1001; rows 1001..1000, indexes after",
			"index after level5",
			"analyze main1,level1,level2,level3,level4,level5",
		},
	}, {
		name: "small tables are not split beyond their chunks",
		mod: func(o *PrepareOptions) {
			o.Gen.TableSize, o.Threads, o.ChunkSize, o.FromTable, o.NoAnalyze = 1000, 8, 400, "level5", true
		},
		rep: report(allTables),
		want: []string{
			"level5: DELETE FROM `level5` WHERE id >= 1; rows 1..1000",
			"range level5 1..334", "range level5 335..668", "range level5 669..1000",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			if tc.mod != nil {
				tc.mod(&o)
			}
			o = checked(t, o)
			p, err := plan(o, MethodLoadData, tc.rep)
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(p); !slices.Equal(got, tc.want) {
				t.Errorf("plan:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			if p.method != MethodLoadData || p.chunkSize != int64(o.ChunkSize) {
				t.Errorf("method %s, chunk size %d", p.method, p.chunkSize)
			}
		})
	}
}

// Every row range of a plan covers the rows to load exactly once, in
// order, whatever the threads and chunk size.
func TestPlanRangesCoverTheRows(t *testing.T) {
	for _, threads := range []int{1, 2, 3, 7, 64} {
		for _, chunk := range []int{1, 97, 1000, 5000} {
			for _, from := range []int64{1, 2, 999, 1500, 1501} {
				o := checked(t, PrepareOptions{Schema: ddl.SchemaOptions{Tables: 2}, Gen: ddl.GenOptions{TableSize: 1500},
					Threads: threads, ChunkSize: chunk, FromTable: "main1", FromRow: from})
				p, err := plan(o, MethodInsert, report([]string{"main1"}))
				if err != nil {
					t.Fatal(err)
				}
				next := make([]int64, len(p.tables))
				for i, tp := range p.tables {
					next[i] = tp.from
				}
				perTable := make([]int, len(p.tables))
				for _, r := range p.ranges {
					if r.from != next[r.table] || r.to < r.from {
						t.Fatalf("threads %d chunk %d from %d: range %s %d..%d, want it from %d",
							threads, chunk, from, p.tables[r.table].Name, r.from, r.to, next[r.table])
					}
					next[r.table] = r.to + 1
					perTable[r.table]++
				}
				for i, tp := range p.tables {
					if next[i] != tp.to+1 {
						t.Errorf("threads %d chunk %d from %d: %s loaded up to %d, want %d", threads, chunk, from, tp.Name, next[i]-1, tp.to)
					}
					if perTable[i] > threads {
						t.Errorf("threads %d chunk %d: %s in %d ranges", threads, chunk, tp.Name, perTable[i])
					}
				}
			}
		}
	}
}

func TestPlanRefuses(t *testing.T) {
	base := PrepareOptions{Gen: ddl.GenOptions{TableSize: 10}}
	for _, tc := range []struct {
		name string
		mod  func(*PrepareOptions)
		rep  *serverReport
		want string
	}{
		{"tables exist", nil, report([]string{"level2", "level4"}),
			"table level2 already exists in database jb (2 of the 6 tables exist): use --recreate to drop and reload them, or joinbench cleanup"},
		{"resume without an earlier table", func(o *PrepareOptions) { o.FromTable = "level3" }, report([]string{"main1", "level1", "level3"}),
			"cannot resume at level3: table level2, which comes before it, does not exist in jb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			if tc.mod != nil {
				tc.mod(&o)
			}
			_, err := plan(checked(t, o), MethodLoadData, tc.rep)
			if !usage.Is(err) || err.Error() != tc.want {
				t.Errorf("err = %v, want the usage error %q", err, tc.want)
			}
		})
	}
}

func TestChooseMethod(t *testing.T) {
	on, off := ServerInfo{LocalInfile: true}, ServerInfo{}
	for _, tc := range []struct {
		asked Method
		si    ServerInfo
		want  Method
		note  bool
		err   bool
	}{
		{MethodAuto, on, MethodLoadData, false, false},
		{MethodAuto, off, MethodInsert, true, false},
		{MethodLoadData, on, MethodLoadData, false, false},
		{MethodLoadData, off, MethodLoadData, false, true},
		{MethodInsert, on, MethodInsert, false, false},
		{MethodInsert, off, MethodInsert, false, false},
	} {
		m, note, err := chooseMethod(tc.asked, tc.si)
		if err != nil {
			if !tc.err || !usage.Is(err) || !strings.Contains(err.Error(), "local_infile=ON") {
				t.Errorf("%s, local_infile %v: err %v", tc.asked, tc.si.LocalInfile, err)
			}
			continue
		}
		if tc.err || m != tc.want || (note != "") != tc.note {
			t.Errorf("%s, local_infile %v: %s, note %q, want %s", tc.asked, tc.si.LocalInfile, m, note, tc.want)
		}
	}
}

func TestResumePoint(t *testing.T) {
	o := checked(t, PrepareOptions{Gen: ddl.GenOptions{TableSize: 1000}, Threads: 2, ChunkSize: 100, FromTable: "level3", FromRow: 201})
	p, err := plan(o, MethodLoadData, report(allTables))
	if err != nil {
		t.Fatal(err)
	}
	// level3 201..600, 601..1000; level4 1..500, 501..1000; level5 1..500, 501..1000
	if len(p.ranges) != 6 {
		t.Fatalf("ranges %v", describe(p))
	}
	failed := errors.New("load level4 rows 301..400: server gone")
	for _, tc := range []struct {
		name     string
		next     []int64
		failed   error
		ctxErr   error
		want     string
		wantUser bool
	}{
		{"interrupted: the first row not committed of the first table not complete", []int64{601, 1001, 301, 901, 1, 501}, nil, errCanceled,
			"load interrupted; resume with the same options plus --from-table level4 --from-row 301", true},
		{"ranges of a table stop at different rows: the lowest", []int64{401, 701, 1, 501, 1, 501}, nil, errCanceled,
			"load interrupted; resume with the same options plus --from-table level3 --from-row 401", true},
		{"every row in, stopped while indexing: after the last row", []int64{601, 1001, 501, 1001, 501, 1001}, nil, errCanceled,
			"load interrupted; resume with the same options plus --from-table level5 --from-row 1001", true},
		{"a session failed: its error with the resume point", []int64{601, 1001, 301, 1001, 501, 1001}, failed, nil,
			"load level4 rows 301..400: server gone (load interrupted; resume with the same options plus --from-table level4 --from-row 301)", false},
		{"a session failed after every row was in: its error alone", []int64{601, 1001, 501, 1001, 501, 1001}, failed, nil,
			"load level4 rows 301..400: server gone", false},
		{"a session failed as the load was interrupted: the resume point", []int64{601, 1001, 301, 1001, 501, 1001}, failed, errCanceled,
			"load interrupted; resume with the same options plus --from-table level4 --from-row 301", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := p.stopError(tc.failed, tc.ctxErr, tc.next)
			if err == nil || err.Error() != tc.want || usage.Is(err) != tc.wantUser {
				t.Fatalf("err = %v (usage %v), want %q (usage %v)", err, usage.Is(err), tc.want, tc.wantUser)
			}
			if tc.failed != nil && !tc.wantUser && !errors.Is(err, failed) {
				t.Errorf("%v does not wrap the session's error", err)
			}
			var ie *InterruptedError
			if tc.wantUser && !errors.As(err, &ie) {
				t.Errorf("%v is not an InterruptedError", err)
			}
		})
	}

	// A plan that loads no table has no resume point: the context's error.
	empty := &loadPlan{}
	if point, _ := empty.resumePoint(nil); point != nil {
		t.Errorf("resume point of an empty plan: %v", point)
	}
	if err := empty.stopError(nil, errCanceled, nil); err != errCanceled {
		t.Errorf("empty plan: %v", err)
	}
}

var errCanceled = errors.New("context canceled")

// folding returns report with the server's table names compared as
// lower_case_table_names 1 or 2 compares them.
func folding(r *serverReport) *serverReport {
	r.FoldNames = true
	return r
}

// Table names are compared as the server compares them: on a
// case-sensitive server (lower_case_table_names=0, Linux) Main2 and
// LEVEL1 are other tables than main2 and level1, which prepare creates
// beside them; on a folding server they are the same tables.
func TestPlanTableNameCase(t *testing.T) {
	base := PrepareOptions{Schema: ddl.SchemaOptions{Tables: 2}, Gen: ddl.GenOptions{TableSize: 10}, Threads: 1, NoAnalyze: true}
	recreate := base
	recreate.Recreate = true
	resume := base
	resume.FromTable = "LEVEL2" // the flag is matched to the schema's spelling

	fresh := []string{
		"main1: CREATE full, DROP INDEXES; rows 1..10, indexes after",
		"main2: CREATE bare; rows 1..10, indexes after",
		"level1: CREATE full, DROP INDEXES; rows 1..10, indexes after",
		"level2: CREATE bare; rows 1..10, indexes after",
		"level3: CREATE bare; rows 1..10, indexes after",
		"level4: CREATE bare; rows 1..10, indexes after",
		"level5: CREATE bare; rows 1..10, indexes after",
	}
	for _, tc := range []struct {
		name    string
		opts    PrepareOptions
		rep     *serverReport
		want    []string // the tables' lines
		wantErr string
	}{
		{name: "case-sensitive: other tables do not block", opts: base, rep: report([]string{"Main2", "LEVEL1", "other"}), want: fresh},
		{name: "case-sensitive: recreate drops nothing it did not make", opts: recreate, rep: report([]string{"Main2", "main1"}),
			want: append([]string{"main1: DROP, CREATE full, DROP INDEXES; rows 1..10, indexes after"}, fresh[1:]...)},
		{name: "case-sensitive: a resume needs the earlier tables themselves", opts: resume,
			rep:     report([]string{"main1", "MAIN2", "level1"}),
			wantErr: "cannot resume at level2: table main2, which comes before it, does not exist in jb"},
		{name: "folding: Main2 is main2", opts: base, rep: folding(report([]string{"Main2", "other"})),
			wantErr: "table main2 already exists in database jb (1 of the 7 tables exist): use --recreate to drop and reload them, or joinbench cleanup"},
		{name: "folding: recreate drops it", opts: recreate, rep: folding(report([]string{"Main2", "LEVEL1"})),
			want: []string{
				"main1: CREATE full, DROP INDEXES; rows 1..10, indexes after",
				"main2: DROP, CREATE bare; rows 1..10, indexes after",
				"level1: DROP, CREATE full, DROP INDEXES; rows 1..10, indexes after",
				"level2: CREATE bare; rows 1..10, indexes after",
				"level3: CREATE bare; rows 1..10, indexes after",
				"level4: CREATE bare; rows 1..10, indexes after",
				"level5: CREATE bare; rows 1..10, indexes after",
			}},
		{name: "folding: a resume finds the earlier tables whatever their case", opts: resume,
			rep: folding(report([]string{"main1", "MAIN2", "level1"})),
			want: []string{
				"level2: CREATE full, DROP INDEXES; rows 1..10, indexes after",
				"level3: CREATE bare; rows 1..10, indexes after",
				"level4: CREATE bare; rows 1..10, indexes after",
				"level5: CREATE bare; rows 1..10, indexes after",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := plan(checked(t, tc.opts), MethodInsert, tc.rep)
			if tc.wantErr != "" {
				if !usage.Is(err) || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want the usage error %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := describe(p)[:len(p.tables)]
			if !slices.Equal(got, tc.want) {
				t.Errorf("plan:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestMatchTables(t *testing.T) {
	have := []string{"Main2", "main1", "LEVEL1", "other"}
	names := []string{"main1", "main2", "level1", "level2"}
	if got := matchTables(have, names, false); !slices.Equal(got, []string{"main1"}) {
		t.Errorf("case-sensitive: %v, want [main1]", got)
	}
	if got := matchTables(have, names, true); !slices.Equal(got, []string{"main1", "main2", "level1"}) {
		t.Errorf("folding: %v, want [main1 main2 level1] (spelled as asked)", got)
	}
}
