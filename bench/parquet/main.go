// Command parquet measures the executions writer of package results on its
// own: rows per second, bytes per row on disk and the Go heap in use while
// writing, for each compression codec. The heap must stay flat as -rows
// grows: writers stream row groups and roll files.
//
//	go run ./bench/parquet -rows 5000000
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/joinbench/joinbench/results"
)

func main() {
	nrows := flag.Int("rows", 2_000_000, "rows to write per codec")
	writers := flag.Int("writers", 1, "writer goroutines, each with its own ExecutionWriter")
	batch := flag.Int("batch", 256, "rows per Write call")
	only := flag.String("codec", "", "run only this codec (zstd-fastest, zstd-default, snappy)")
	flag.Parse()

	codecs := []struct {
		name  string
		codec compress.Codec
	}{
		{"zstd-fastest", &zstd.Codec{Level: zstd.SpeedFastest}},
		{"zstd-default", &zstd.Codec{Level: zstd.SpeedDefault}},
		{"snappy", &snappy.Codec{}},
	}
	src := make([]results.Execution, 1<<14)
	for i := range src {
		src[i] = row(i)
	}
	fmt.Printf("%-14s %10s %12s %10s %12s %8s\n", "codec", "rows", "rows/s", "bytes/row", "max heap MB", "files")
	for _, c := range codecs {
		if *only != "" && c.name != *only {
			continue
		}
		dir, err := os.MkdirTemp("", "jb-parquet-bench")
		check(err)
		d, err := results.CreateWithOptions(dir, results.NewRunID(time.Now()), "bench", results.Options{Compression: c.codec})
		check(err)
		var maxHeap uint64
		done := make(chan struct{})
		go func() { // sample the heap while writing
			var ms runtime.MemStats
			for {
				select {
				case <-done:
					return
				case <-time.After(50 * time.Millisecond):
					runtime.ReadMemStats(&ms)
					maxHeap = max(maxHeap, ms.HeapInuse)
				}
			}
		}()
		start := time.Now()
		errs := make(chan error, *writers)
		per := *nrows / *writers
		for w := 0; w < *writers; w++ {
			go func() {
				ew, err := d.NewExecutionWriter()
				if err != nil {
					errs <- err
					return
				}
				for n := 0; n < per; {
					k := min(*batch, per-n)
					off := (n % len(src)) &^ (*batch - 1) % len(src)
					if off+k > len(src) {
						off = 0
					}
					if err := ew.Write(src[off : off+k]); err != nil {
						errs <- err
						return
					}
					n += k
				}
				errs <- ew.Close()
			}()
		}
		for w := 0; w < *writers; w++ {
			check(<-errs)
		}
		check(d.Close())
		elapsed := time.Since(start)
		close(done)
		files, _ := filepath.Glob(filepath.Join(d.Path(), "executions-*.parquet"))
		var size int64
		for _, f := range files {
			st, err := os.Stat(f)
			check(err)
			size += st.Size()
		}
		total := per * *writers
		fmt.Printf("%-14s %10d %12.0f %10.1f %12.1f %8d\n", c.name, total, float64(total)/elapsed.Seconds(),
			float64(size)/float64(total), float64(maxHeap)/(1<<20), len(files))
		os.RemoveAll(dir)
	}
}

// row is a realistic execution row: 43 scenarios, 16 threads, three
// parameters, a few errors and paced starts.
func row(i int) results.Execution {
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * 37 * time.Microsecond)
	e := results.Execution{
		RunID: "20261130T120000Z-ab12", Scenario: fmt.Sprintf("scenario_%02d", i%43),
		TemplateHash: fmt.Sprintf("%016x", i%43*7919), Endpoint: "10.0.0.5:3306", ClientHost: "bench",
		Thread: int32(i % 16), Event: int64(i / 16), StatementSeq: 0, Start: start,
		LatencyNs: int64(200_000 + (i*7919)%9_000_000), Rows: int64(i % 101),
		PlanHash: fmt.Sprintf("%016x", i%43*104729+i%2),
		Params:   []string{fmt.Sprintf("main%d", i%4+1), []string{"active", "inactive", "pending"}[i%3], []string{"Africa", "Asia", "Europe", "Oceania"}[i%4]},
		Checksum: fmt.Sprintf("%016x:%d", uint64(i)*0x9e3779b97f4a7c15, i%101),
	}
	if i%3 == 0 {
		t := start.Add(-time.Duration(i%500) * time.Microsecond)
		e.IntendedStart = &t
	}
	if i%97 == 0 {
		e.ErrorCode, e.SQLState, e.ErrorMessage, e.Checksum = 1213, "40001", "Deadlock found when trying to get lock; try restarting transaction", ""
	}
	return e
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "parquet bench:", err)
		os.Exit(1)
	}
}
