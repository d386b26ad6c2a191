package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/joinbench/joinbench/results"
)

// genRun writes a run folder of rows executions over scenarios scenarios
// with the project's own writer, as a recording run at rate executions a
// second would: one writer per thread, files finished every second of
// simulated time (FileRows = rate/threads rows), 64k-row row groups. It
// returns the run folder.
func genRun(parent, runID string, rows, scenarios, threads, rate int, seed uint64) (string, error) {
	perFile := int64(max(rate/threads, 1))
	d, err := results.CreateWithOptions(parent, runID, "bench", results.Options{FileRows: perFile, FileAge: time.Hour})
	if err != nil {
		return "", err
	}
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	names := make([]string, scenarios)
	medians := make([]float64, scenarios)
	for i := range names {
		names[i] = fmt.Sprintf("scenario_%02d", i)
		medians[i] = 200e3 * math.Pow(1.15, float64(i)) // 0.2 ms up to tens of ms
	}
	statuses := []string{"active", "inactive", "pending"}
	continents := []string{"Africa", "Asia", "Europe", "Oceania", "North America", "South America"}
	var wg sync.WaitGroup
	errs := make([]error, threads)
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			w, err := d.NewExecutionWriter()
			if err != nil {
				errs[t] = err
				return
			}
			rng := rand.New(rand.NewPCG(seed, uint64(t)))
			n := rows / threads
			if t < rows%threads {
				n++
			}
			gap := time.Duration(float64(time.Second) * float64(threads) / float64(rate))
			batch := make([]results.Execution, 0, 256)
			at := start
			for i := 0; i < n; i++ {
				s := rng.IntN(scenarios)
				lat := int64(medians[s] * math.Exp(0.5*rng.NormFloat64()))
				e := results.Execution{
					Scenario: names[s], TemplateHash: fmt.Sprintf("%016x", uint64(s)*0x9e3779b97f4a7c15),
					Endpoint: "127.0.0.1:3306", Thread: int32(t), Event: int64(i), Start: at,
					LatencyNs: lat, Rows: int64(rng.IntN(100)),
					PlanHash: fmt.Sprintf("%016x", uint64(s)*104729+uint64(rng.IntN(100)/98)),
					Params:   []string{fmt.Sprintf("main%d", rng.IntN(4)+1), statuses[rng.IntN(3)], continents[rng.IntN(6)]},
				}
				if rng.IntN(1000) == 0 {
					e.ErrorCode, e.SQLState, e.ErrorMessage, e.PlanHash = 1213, "40001", "Deadlock found when trying to get lock; try restarting transaction", ""
				}
				at = at.Add(gap)
				batch = append(batch, e)
				if len(batch) == cap(batch) || i == n-1 {
					if err := w.Write(batch); err != nil {
						errs[t] = err
						return
					}
					batch = batch[:0]
				}
			}
			errs[t] = w.Close()
		}(t)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return "", err
		}
	}
	end := start.Add(time.Duration(float64(rows) / float64(rate) * float64(time.Second)))
	if err := d.WriteRun(&results.Run{RunID: runID, ToolVersion: "bench", ClientHost: "bench", Endpoints: []string{"127.0.0.1:3306"},
		Scenarios: names, Start: start, End: end, Executions: int64(rows)}); err != nil {
		return "", err
	}
	if err := d.Close(); err != nil {
		return "", err
	}
	return d.Path(), nil
}

// ensureRun returns the run folder parent/run=<runID>, generating it when
// it does not exist yet.
func ensureRun(parent, runID string, rows, scenarios, threads, rate int, seed uint64) (string, error) {
	dir := filepath.Join(parent, results.RunDirPrefix+runID)
	if _, err := os.Stat(filepath.Join(dir, results.RunFile)); err == nil {
		return dir, nil
	}
	_ = os.RemoveAll(dir)
	t0 := time.Now()
	dir, err := genRun(parent, runID, rows, scenarios, threads, rate, seed)
	if err != nil {
		return "", fmt.Errorf("generate %s: %w", runID, err)
	}
	fmt.Fprintf(os.Stderr, "generated %s: %d executions in %.1f s\n", dir, rows, time.Since(t0).Seconds())
	return dir, nil
}
