package load

import (
	"fmt"
	"strings"
	"time"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/usage"
)

// Method is how rows are sent to the server.
type Method int

const (
	// MethodAuto uses LOAD DATA LOCAL INFILE when the server allows it
	// (local_infile=ON) and batched INSERTs otherwise.
	MethodAuto Method = iota
	// MethodLoadData streams each chunk with LOAD DATA LOCAL INFILE from
	// the generator, through an io.Pipe: no file is written.
	MethodLoadData
	// MethodInsert sends multi-row INSERTs sized to max_allowed_packet.
	MethodInsert
)

// ParseMethod maps "auto", "load-data" or "insert" to a Method.
func ParseMethod(s string) (Method, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return MethodAuto, nil
	case "load-data":
		return MethodLoadData, nil
	case "insert":
		return MethodInsert, nil
	}
	return 0, fmt.Errorf("unknown load method %q (want auto, load-data or insert)", s)
}

func (m Method) String() string {
	return [...]string{"auto", "load-data", "insert"}[m]
}

// PrepareOptions configure Prepare.
type PrepareOptions struct {
	Schema ddl.SchemaOptions
	Gen    ddl.GenOptions
	// Threads loading at once: tables load in parallel, and a table of
	// more than one chunk is split into up to Threads row ranges.
	Threads int
	// ChunkSize is the number of rows per statement and commit.
	ChunkSize int
	// IndexesDuringLoad creates the tables with every index, so that rows
	// go into the secondary indexes one by one as they load. By default a
	// table is created with its primary key only and its secondary indexes
	// are added by one ALTER TABLE as soon as its last row is in, which
	// builds them by sorting: on InnoDB this halves the server's work (see
	// bench/prepare.sh).
	IndexesDuringLoad bool
	// Recreate drops existing tables of the schema first; without it an
	// existing table is an error.
	Recreate bool
	// FromTable and FromRow resume an interrupted load: tables before
	// FromTable are kept as they are, FromTable keeps its rows below
	// FromRow, the rest is (re)loaded.
	FromTable string
	FromRow   int64
	Method    Method
	// SkipBinlog sets sql_log_bin=0 for the load sessions so replicas do
	// not receive the rows (needs the privilege to set it).
	SkipBinlog bool
	// NoAnalyze skips the final ANALYZE TABLE.
	NoAnalyze bool
	// Segment loads one share of every table's rows; the last segment to
	// finish adds the indexes and analyses (see prepareSegment). The zero
	// value loads everything.
	Segment segment.Segment
	// Snapshots, when set, restores the dataset from a snapshot of it in
	// the store when there is one that fits the server, and otherwise
	// loads it and saves a snapshot of it there (see prepareWithSnapshot).
	Snapshots *SnapshotStore
	Progress  Progress     // nil: none
	Log       func(string) // nil: none; one line per call
}

// Progress receives load progress; implementations must be safe for
// concurrent use.
type Progress interface {
	// Start announces a table of total rows, of which done are already there.
	Start(table string, total, done int64)
	// Add counts rows committed.
	Add(table string, rows int64)
	// Done marks a table loaded.
	Done(table string)
	// Finish ends the display (all tables loaded or the load stopped).
	Finish()
}

// TableStats is what Prepare did to one table.
type TableStats struct {
	Name     string
	Rows     int64
	Load     time.Duration // loading rows
	Indexing time.Duration // adding deferred indexes
}

// PrepareResult sums up a load.
type PrepareResult struct {
	Method   Method
	Tables   []TableStats
	Rows     int64
	Duration time.Duration // create to analyze
	// Finished says, for a segment of a split prepare, that it was the
	// last and added the indexes and analysed.
	Finished bool
	// Restored names the snapshot the tables were restored from ("" when
	// they were loaded); Saved the snapshot taken after loading them.
	Restored, Saved string
}

// RowsPerSecond is rows loaded per second of the whole prepare.
func (r *PrepareResult) RowsPerSecond() float64 {
	if r.Duration <= 0 {
		return 0
	}
	return float64(r.Rows) / r.Duration.Seconds()
}

// InterruptedError is returned when the context ends mid-load: every
// chunk that started was finished, and the load resumes with
// --from-table Table --from-row Row.
type InterruptedError struct {
	Table string
	Row   int64
	// Snapshot: the load was a prepare --snapshot's. A resumed load
	// saves no snapshot (--snapshot refuses --from-table): its tables
	// were written by two loads, so nothing proves them those of one, and
	// a snapshot is restored in place of a load for ever after. The
	// advice is then to resume without --snapshot, or to load afresh.
	Snapshot bool
}

func (e *InterruptedError) Error() string {
	if e.Snapshot {
		return fmt.Sprintf("load interrupted; resume with the same options but without --snapshot, plus --from-table %s --from-row %d "+
			"(a resumed load saves no snapshot), or load afresh and save one with the same options plus --recreate", e.Table, e.Row)
	}
	return fmt.Sprintf("load interrupted; resume with the same options plus --from-table %s --from-row %d", e.Table, e.Row)
}

// check applies the defaults and refuses impossible options, before any
// server is asked anything.
func (o *PrepareOptions) check() error {
	var err error
	if o.Schema, err = o.Schema.Normalize(); err != nil {
		return usage.Wrap(err)
	}
	if o.Gen.TableSize < 1 {
		return usage.Errorf("--table-size must be at least 1, got %d", o.Gen.TableSize)
	}
	if _, err := ddl.NewGenerator(o.Gen); err != nil {
		return usage.Wrap(err)
	}
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.Threads < 1 || o.Threads > 1024 {
		return usage.Errorf("--threads must be between 1 and 1024, got %d", o.Threads)
	}
	if o.ChunkSize == 0 {
		o.ChunkSize = 10000
	}
	if o.ChunkSize < 1 {
		return usage.Errorf("--chunk-size must be at least 1, got %d", o.ChunkSize)
	}
	if o.Segment.Split() && (o.Recreate || o.FromTable != "") {
		return usage.Errorf("--segment cannot be combined with --recreate or --from-table: run joinbench cleanup first to start over; a segment run again replaces its own rows")
	}
	if o.Snapshots != nil {
		switch {
		case o.Segment.Split():
			return usage.Errorf("--snapshot cannot be combined with --segment: a snapshot is of a whole dataset on one server")
		case o.FromTable != "":
			return usage.Errorf("--snapshot cannot be combined with --from-table: a snapshot restores or saves every table of one load; " +
				"resume without --snapshot (no snapshot is saved), or use --recreate to load afresh and save one")
		case !strings.EqualFold(o.Schema.Engine, "InnoDB"):
			return usage.Errorf("--snapshot needs --engine InnoDB: snapshots are InnoDB transportable tablespaces, and --engine is %s", o.Schema.Engine)
		}
	}
	if o.FromTable == "" && o.FromRow != 0 {
		return usage.Errorf("--from-row needs --from-table")
	}
	if o.FromTable != "" {
		// The flag names a table of the schema, in any case; from here on
		// it is spelled as the schema spells it, so that it is compared
		// with the server's tables as the server compares names.
		match := ""
		for _, n := range o.Schema.TableNames() {
			if n == o.FromTable {
				match = n
				break
			}
			if match == "" && strings.EqualFold(n, o.FromTable) {
				match = n
			}
		}
		if match == "" {
			return usage.Errorf("--from-table %s is not a table of this schema (%s)", o.FromTable, strings.Join(o.Schema.TableNames(), ", "))
		}
		o.FromTable = match
		if o.FromRow == 0 {
			o.FromRow = 1
		}
		if o.FromRow < 1 || o.FromRow > o.Gen.TableSize+1 {
			return usage.Errorf("--from-row must be between 1 and --table-size+1 (%d), got %d", o.Gen.TableSize+1, o.FromRow)
		}
		if o.Recreate {
			return usage.Errorf("--recreate cannot be combined with --from-table: resuming keeps the loaded rows")
		}
	}
	return nil
}

func (o *PrepareOptions) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log(fmt.Sprintf(format, args...))
	}
}
