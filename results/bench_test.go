package results

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// BenchmarkExecutionWriter measures the executions writer alone: realistic
// rows written in batches of 256 (what a worker hands over), row groups
// streamed to a file on disk, files rolled at the default size. The
// writer runs much faster than any server, so the one-second files of a
// real run are modelled by their row counts: "1s-at-65k" rolls a file
// every 65,000 rows, as a run recording 65,000 executions per second does
// (the point select of bench/point_select.sh), "1s-at-10k" every 10,000;
// "zstd-fastest" alone rolls by size only, as one-minute files did;
// "journal" appends rows to a journal and makes Parquet of it at Close
// (Options.Journal), "cpu-ns/row-written" being its cost before Close.
func BenchmarkExecutionWriter(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"zstd-fastest", Options{FileAge: time.Hour}},
		{"zstd-fastest-1s-at-65k", Options{FileAge: time.Hour, FileRows: 65_000}},
		{"zstd-fastest-1s-at-10k", Options{FileAge: time.Hour, FileRows: 10_000}},
		{"snappy", Options{FileAge: time.Hour, Compression: &snappy.Codec{}}},
		{"zstd-default", Options{FileAge: time.Hour, Compression: &zstd.Codec{Level: zstd.SpeedDefault}}},
		{"journal", Options{Journal: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			const batch = 256
			src := sampleExecutions(0, 1<<14)
			d, err := CreateWithOptions(b.TempDir(), "bench", "client-1", bc.opts)
			if err != nil {
				b.Fatal(err)
			}
			w, err := d.NewExecutionWriter()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			rows := 0
			for i := 0; rows < b.N; i++ {
				off := (i * batch) % len(src)
				n := min(batch, b.N-rows)
				if err := w.Write(src[off : off+n]); err != nil {
					b.Fatal(err)
				}
				rows += n
			}
			written := cpuTime()
			if err := d.Close(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			size := int64(0)
			for _, f := range w.Files() {
				if fi, err := os.Stat(f); err == nil {
					size += fi.Size()
				}
			}
			b.ReportMetric(float64(size)/float64(b.N), "bytes/row")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			// wall time suffers when other processes share the cores;
			// rows per CPU second of this process does not
			b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "rows/cpu-s")
			// what a run pays while it is measured: a journal's rows
			// become Parquet at Close, after the measured time
			b.ReportMetric(float64((written-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/row-written")
		})
	}
}

// cpuTime is the user + system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkScanExecutions reads 400,000 executions of 40 scenarios from
// files of 65,000 rows (a second of a fast run) with the columns report
// and compare need: by columns, files in parallel ("columns"), and row by
// row ("rows", how report read before).
func BenchmarkScanExecutions(b *testing.B) {
	const n = 400_000
	d, err := CreateWithOptions(b.TempDir(), "bench", "client-1", Options{FileAge: time.Hour, FileRows: 65_000})
	if err != nil {
		b.Fatal(err)
	}
	w, err := d.NewExecutionWriter()
	if err != nil {
		b.Fatal(err)
	}
	src := sampleExecutions(0, 1<<14)
	for rows := 0; rows < n; rows += len(src) {
		if err := w.Write(src[:min(len(src), n-rows)]); err != nil {
			b.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		scan func() (int64, error)
	}{
		{"columns", func() (sum int64, err error) {
			_, err = ScanExecutionColumns(d.Path(), nil, ColumnScan{}, func(c *ExecutionColumns) error {
				for _, v := range c.LatencyNs {
					sum += v
				}
				return nil
			})
			return sum, err
		}},
		{"rows", func() (sum int64, err error) {
			_, err = ScanExecutionFields(d.Path(), nil, ExecutionFields{columnFields}, func(e *Execution) error {
				sum += e.LatencyNs
				return nil
			})
			return sum, err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := bc.scan(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(n)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "rows/cpu-s")
		})
	}
}

// BenchmarkJournalCodec measures the journal's encoding and decoding
// alone, without the file: frames of 256 rows (what a worker hands over)
// of the rows of BenchmarkExecutionWriter.
func BenchmarkJournalCodec(b *testing.B) {
	const batch = 256
	src := sampleExecutions(0, 1<<14)
	b.Run("encode", func(b *testing.B) {
		j := &journalWriter[Execution]{enc: executionJournal.newEncoder()}
		b.ReportAllocs()
		rows := 0
		cpu0 := cpuTime()
		for i := 0; b.Loop(); i++ {
			off := (i * batch) % len(src)
			j.frame(src[off : off+batch])
			rows += batch
		}
		reportRowCost(b, rows, cpu0)
	})
	b.Run("decode", func(b *testing.B) {
		j := &journalWriter[Execution]{enc: executionJournal.newEncoder()}
		var frames [][]byte
		for off := 0; off < len(src); off += batch {
			frames = append(frames, append([]byte(nil), j.frame(src[off:off+batch])...))
		}
		b.ReportAllocs()
		rows := 0
		dst := make([]Execution, 0, batch)
		dec := executionJournal.newDecoder(executionLayout)
		cpu0 := cpuTime()
		for i := 0; b.Loop(); i++ {
			var err error
			if dst, err = dec.decodeRows(frames[i%len(frames)][frameHeader:], batch, dst[:0]); err != nil {
				b.Fatal(err)
			}
			rows += len(dst)
		}
		reportRowCost(b, rows, cpu0)
	})
}

// reportRowCost reports the wall and CPU time per row; the CPU time
// suffers less from other processes sharing the cores.
func reportRowCost(b *testing.B, rows int, cpu0 time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(rows), "cpu-ns/row")
}
