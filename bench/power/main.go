// Command power makes, from the run folders of an A/A comparison, the
// same runs with every candidate latency multiplied by a factor: what the
// candidate would have recorded on a server uniformly that much slower,
// with the noise of this machine and this setup left exactly as it was.
// bench/power.sh compares each copy with its base to measure how often a
// verdict catches a slowdown of a given size (the power curve of
// docs/compare.md, "What a verdict can see").
//
//	go run ./bench/power -factor 1.10 SRC_SIDE_DIR DST_SIDE_DIR
//
// SRC_SIDE_DIR holds run folders (run=<id>/, as ab writes a side); each is
// copied into DST_SIDE_DIR under the same name: its executions rewritten
// with the project's own writer, latency_ns (and the time a statement cut
// at the end had run) times the factor, every other file as it is. Start
// times are kept, so that each execution stays in its slice or round.
//
// A uniform factor is the textbook effect size (Kalibera and Jones): a
// real slowdown is rarely uniform over scenarios and statements, and a
// slower candidate would also have run fewer statements in the same time;
// the curve this gives is the test's power for the effect it injects, not
// a prediction for every kind of regression.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/results"
)

func main() {
	factor := flag.Float64("factor", 1.1, "multiply every candidate latency by this")
	flag.Parse()
	if flag.NArg() != 2 || !(*factor > 0) || math.IsInf(*factor, 0) {
		fmt.Fprintln(os.Stderr, "usage: power -factor F SRC_SIDE_DIR DST_SIDE_DIR (F > 0)")
		os.Exit(2)
	}
	if err := scaleSide(flag.Arg(0), flag.Arg(1), *factor); err != nil {
		fmt.Fprintln(os.Stderr, "power:", err)
		os.Exit(1)
	}
}

// scaleSide copies every run folder of src into dst, scaled.
func scaleSide(src, dst string, factor float64) error {
	runs, err := filepath.Glob(filepath.Join(src, "run=*"))
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return fmt.Errorf("%s: no run folder (run=<id>/)", src)
	}
	for _, r := range runs {
		if err := scaleRun(r, dst, factor); err != nil {
			return fmt.Errorf("%s: %w", r, err)
		}
	}
	return nil
}

// scaleRun writes run folder src again under dst, its latencies scaled.
func scaleRun(src, dst string, factor float64) error {
	id := strings.TrimPrefix(filepath.Base(src), "run=")
	d, err := results.Create(dst, id, "power")
	if err != nil {
		return err
	}
	w, err := d.NewExecutionWriter()
	if err != nil {
		return err
	}
	batch := make([]results.Execution, 0, 1024)
	flush := func() error {
		err := w.Write(batch)
		batch = batch[:0]
		return err
	}
	_, err = results.ScanExecutions(src, func(err error) { fmt.Fprintln(os.Stderr, "power: warning:", err) }, func(e *results.Execution) error {
		x := *e
		x.Params = append([]string(nil), e.Params...)
		x.LatencyNs = int64(math.Round(float64(e.LatencyNs) * factor))
		batch = append(batch, x)
		if len(batch) == cap(batch) {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return copyOthers(src, d.Path())
}

// copyOthers copies every file of src but the executions into dst, over
// any the writer made there.
func copyOthers(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), "executions") {
			continue
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
