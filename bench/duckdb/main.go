// Command duckdb times `joinbench report` and `joinbench compare` against
// DuckDB computing the same figures (count, errors, mean, p50, p95, p99 and
// max latency of the successful executions, per scenario) from the same
// Parquet files, and prints the ratios of wall time and peak RSS.
//
// It generates the runs it needs with the project's own writer (a run of
// -rows executions over -scenarios scenarios, files finished every
// simulated second as a recording run does) and keeps them under -dir for
// the next time. Each side runs as a child process, so that both pay a
// process start and the peak RSS of each is its own (getrusage of the
// child). The two alternate, -reps times after one untimed warm-up each,
// the order swapped every repetition: on a shared machine, read the
// ratios and their spread, not the absolute times.
//
//	cd bench/duckdb && go run . -joinbench ../../bin/joinbench -rows 1000000
package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"

	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

func main() {
	rows := flag.Int("rows", 1_000_000, "executions per generated run")
	scenarios := flag.Int("scenarios", 40, "scenarios per generated run")
	threads := flag.Int("threads", 4, "writer threads of a generated run (one file series each)")
	rate := flag.Int("rate", 65_000, "executions per simulated second of a generated run (sets the rows per file)")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "jb-duckdb-bench"), "folder holding the generated runs (kept for the next time)")
	jb := flag.String("joinbench", "bin/joinbench", "joinbench binary")
	reps := flag.Int("reps", 5, "timed repetitions of each side")
	what := flag.String("what", "report,compare", "what to time: report, compare or both (comma-separated)")
	query := flag.String("duckdb-query", "", "internal: run the DuckDB query on these run folders (comma-separated) and print its figures as JSON")
	flag.Parse()

	if *query != "" {
		check(duckdbFigures(strings.Split(*query, ",")))
		return
	}
	base, err := ensureRun(*dir, fmt.Sprintf("bench-%d-a", *rows), *rows, *scenarios, *threads, *rate, 1)
	check(err)
	self, err := os.Executable()
	check(err)
	fmt.Printf("%d executions, %d scenarios, %d files a run; GOMAXPROCS %d; joinbench %s\n",
		*rows, *scenarios, countFiles(base), runtime.GOMAXPROCS(0), *jb)
	for _, w := range strings.Split(*what, ",") {
		switch w {
		case "report":
			// JSON carries every figure and the slowest executions read
			// back; text computes the figures DuckDB computes, no more.
			duel(w, *reps,
				[]string{*jb, "report", "--format", "json", base},
				[]string{self, "-duckdb-query", base}, base)
			duel(w+" (text)", *reps,
				[]string{*jb, "report", "--format", "text", base},
				[]string{self, "-duckdb-query", base}, "")
		case "compare":
			cand, err := ensureRun(*dir, fmt.Sprintf("bench-%d-b", *rows), *rows, *scenarios, *threads, *rate, 2)
			check(err)
			duel(w, *reps,
				[]string{*jb, "compare", "--format", "json", base, cand},
				[]string{self, "-duckdb-query", base + "," + cand}, "")
		default:
			check(fmt.Errorf("-what: %q is not report or compare", w))
		}
	}
}

// measure is one timed child process.
type measure struct {
	wall  time.Duration
	cpu   time.Duration
	rssMB float64
	out   []byte
}

func runChild(argv []string) (measure, error) {
	// Through /usr/bin/time: the peak RSS that wait4 reports for a child
	// of this process starts at this process's own (it is carried over
	// exec), and this one links DuckDB.
	tf, err := os.CreateTemp("", "jb-duckdb-time")
	if err != nil {
		return measure{}, err
	}
	tf.Close()
	defer os.Remove(tf.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M %U %S", "-o", tf.Name()}, argv...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err = cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		return measure{}, fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, errb.String())
	}
	b, err := os.ReadFile(tf.Name())
	if err != nil {
		return measure{}, err
	}
	var kb, user, sys float64
	if _, err := fmt.Sscan(string(b), &kb, &user, &sys); err != nil {
		return measure{}, fmt.Errorf("/usr/bin/time said %q: %w", b, err)
	}
	return measure{wall: wall, cpu: time.Duration((user + sys) * float64(time.Second)), rssMB: kb / 1024, out: out.Bytes()}, nil
}

// duel times the joinbench and DuckDB commands alternately and prints each
// repetition and the medians. With a run folder, it also checks that the
// two agree on the figures.
func duel(name string, reps int, jbArgv, dkArgv []string, run string) {
	fmt.Printf("\n%s: %s\n", name, strings.Join(jbArgv[1:], " "))
	jw, err := runChild(jbArgv) // warm-up: page cache, and the figures to check
	check(err)
	dw, err := runChild(dkArgv)
	check(err)
	if run != "" {
		agree(jw.out, dw.out)
	}
	fmt.Printf("%4s %10s %10s %10s   %10s %10s %10s   %7s %7s\n", "rep", "jb s", "jb cpu s", "jb MB", "duck s", "duck cpu s", "duck MB", "time x", "rss x")
	var tr, rr, cr []float64
	var jt, dt, jr, dr []float64
	for i := 0; i < reps; i++ {
		var j, d measure
		if i%2 == 0 {
			j, err = runChild(jbArgv)
			check(err)
			d, err = runChild(dkArgv)
		} else {
			d, err = runChild(dkArgv)
			check(err)
			j, err = runChild(jbArgv)
		}
		check(err)
		t, r := j.wall.Seconds()/d.wall.Seconds(), j.rssMB/d.rssMB
		fmt.Printf("%4d %10.3f %10.3f %10.1f   %10.3f %10.3f %10.1f   %7.2f %7.2f\n", i+1,
			j.wall.Seconds(), j.cpu.Seconds(), j.rssMB, d.wall.Seconds(), d.cpu.Seconds(), d.rssMB, t, r)
		tr, rr = append(tr, t), append(rr, r)
		if d.cpu > 0 {
			cr = append(cr, j.cpu.Seconds()/d.cpu.Seconds())
		}
		jt, dt, jr, dr = append(jt, j.wall.Seconds()), append(dt, d.wall.Seconds()), append(jr, j.rssMB), append(dr, d.rssMB)
	}
	fmt.Printf("%s median: joinbench %.3f s %.1f MB, DuckDB %.3f s %.1f MB; ratio time %.2f (%.2f-%.2f), peak RSS %.2f (%.2f-%.2f) over %d reps\n",
		name, median(jt), median(jr), median(dt), median(dr),
		median(tr), slices.Min(tr), slices.Max(tr), median(rr), slices.Min(rr), slices.Max(rr), reps)
	// CPU time moves less than wall time when other processes take the
	// cores: read it beside the time ratio on a busy machine
	if len(cr) > 0 {
		fmt.Printf("%s median CPU time ratio %.2f (%.2f-%.2f)\n", name, median(cr), slices.Min(cr), slices.Max(cr))
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// figures are one scenario's figures, latencies in nanoseconds.
type figures struct {
	Scenario                    string
	Executions, Errors          int64
	Mean, P50, P95, P99, MaxLat float64
}

// duckdbFigures prints the figures of each run folder, the way someone
// opening the files in DuckDB would compute them.
func duckdbFigures(dirs []string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	var parts []string
	for i, d := range dirs {
		parts = append(parts, fmt.Sprintf(`SELECT %d AS side, scenario, count(*) AS executions,
  count(*) FILTER (WHERE error_code <> 0) AS errors,
  avg(latency_ns) FILTER (WHERE error_code = 0) AS mean_ns,
  quantile_disc(latency_ns, [0.5, 0.95, 0.99]) FILTER (WHERE error_code = 0) AS q,
  max(latency_ns) FILTER (WHERE error_code = 0) AS max_ns
FROM read_parquet('%s') GROUP BY scenario`, i, filepath.Join(d, "executions-*.parquet")))
	}
	q := strings.Join(parts, "\nUNION ALL\n") + "\nORDER BY side, scenario"
	rows, err := db.Query(q)
	if err != nil {
		return fmt.Errorf("duckdb: %w", err)
	}
	defer rows.Close()
	var out [][]figures
	for rows.Next() {
		var side int
		var f figures
		var qs []any
		var mean sql.NullFloat64
		var maxNs sql.NullInt64
		if err := rows.Scan(&side, &f.Scenario, &f.Executions, &f.Errors, &mean, &qs, &maxNs); err != nil {
			return fmt.Errorf("duckdb: %w", err)
		}
		f.Mean, f.MaxLat = mean.Float64, float64(maxNs.Int64)
		for i, p := range []*float64{&f.P50, &f.P95, &f.P99} {
			if i < len(qs) {
				if v, ok := qs[i].(int64); ok {
					*p = float64(v)
				}
			}
		}
		for len(out) <= side {
			out = append(out, nil)
		}
		out[side] = append(out[side], f)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

// agree checks that joinbench's report and DuckDB's figures match: counts
// exactly, latencies within 0.5% (or one microsecond): the histogram keeps
// 0.1%, and a percentile's rank is ceil(q*n) in joinbench where DuckDB's
// quantile_disc interpolates its position, which in a thin tail is a few
// tenths of a percent apart.
func agree(jbJSON, dkJSON []byte) {
	var raw struct {
		Runs []struct {
			Scenarios []map[string]any `json:"scenarios"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(jbJSON, &raw); err != nil || len(raw.Runs) == 0 {
		fmt.Printf("  figures: cannot read joinbench's JSON (%v)\n", err)
		return
	}
	var dk [][]figures
	if err := json.Unmarshal(dkJSON, &dk); err != nil || len(dk) == 0 {
		fmt.Printf("  figures: cannot read DuckDB's figures (%v)\n", err)
		return
	}
	byName := map[string]figures{}
	for _, f := range dk[0] {
		byName[f.Scenario] = f
	}
	num := func(m map[string]any, k string) float64 { v, _ := m[k].(float64); return v }
	bad, worst := 0, 0.0
	for _, s := range raw.Runs[0].Scenarios {
		name, _ := s["scenario"].(string)
		f, ok := byName[name]
		if !ok || int64(num(s, "executions")) != f.Executions || int64(num(s, "errors")) != f.Errors {
			fmt.Printf("  figures differ for %s: joinbench %v executions %v errors, DuckDB %+v\n", name, s["executions"], s["errors"], f)
			bad++
			continue
		}
		for _, c := range []struct {
			k string
			v float64
		}{{"mean_ms", f.Mean}, {"p50_ms", f.P50}, {"p95_ms", f.P95}, {"p99_ms", f.P99}, {"max_ms", f.MaxLat}} {
			got := num(s, c.k) * 1e6
			d := math.Abs(got-c.v) / math.Max(c.v, 1)
			worst = math.Max(worst, d)
			if math.Abs(got-c.v) > 1000 && d > 0.005 {
				fmt.Printf("  %s %s: joinbench %.0f ns, DuckDB %.0f ns\n", name, c.k, got, c.v)
				bad++
			}
		}
	}
	if len(raw.Runs[0].Scenarios) != len(byName) {
		fmt.Printf("  joinbench has %d scenarios, DuckDB %d\n", len(raw.Runs[0].Scenarios), len(byName))
		bad++
	}
	fmt.Printf("  figures agree: %v (%d scenarios; largest latency difference %.3f%%, the histogram keeps 0.1%%)\n",
		bad == 0, len(byName), 100*worst)
}

func countFiles(run string) int {
	m, _ := filepath.Glob(filepath.Join(run, "executions-*.parquet"))
	return len(m)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "duckdb bench:", err)
		os.Exit(1)
	}
}
