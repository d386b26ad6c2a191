package load

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// loadPlan is everything Prepare does, decided before a table is touched
// from the options and what the server reported.
type loadPlan struct {
	method    Method
	chunkSize int64
	// tables are the tables this prepare loads rows into, in schema order
	// (a resumed load leaves out those before the resume point).
	tables []tablePlan
	// ranges are the row ranges of tables in the order sessions take them.
	ranges []rowRange
	// indexAfter are the tables that get no row in this load but lack
	// their secondary indexes, as an interrupted load leaves them: the
	// index stage adds those after the load.
	indexAfter []ddl.BuiltinTable
	// analyze names the tables of the final ANALYZE TABLE; none with
	// NoAnalyze.
	analyze []string
}

// tablePlan is one table to load. The create stage readies it by running,
// in this order, clear, DROP TABLE when drop, create and dropIndexes (each
// only when set).
type tablePlan struct {
	ddl.BuiltinTable
	n int // number within its kind: main<n> or level<n>
	// clear is the TRUNCATE or DELETE that empties an existing table of
	// the rows a resumed load writes again.
	clear string
	// drop an existing table first (with Recreate).
	drop bool
	// create is the CREATE TABLE to run; "" keeps the existing table.
	create string
	// dropIndexes is the ALTER TABLE dropping the secondary indexes of a
	// table created with them only to find out early that the engine and
	// table options can hold them; "" when there is none to drop.
	dropIndexes string
	// from and to are the rows to load (none when from > to); first is
	// the first row of the table's part this prepare makes (1, or the
	// first of a segment's share), for progress.
	first, from, to int64
	// bare tables are loaded without their secondary indexes: the session
	// that commits the last row adds them.
	bare bool
}

// rowRange is rows from..to of plan.tables[table], loaded by one session
// in chunks of chunkSize rows.
type rowRange struct {
	table    int
	from, to int64
}

// chooseMethod resolves MethodAuto from the server's local_infile, and
// refuses LOAD DATA when the server would refuse it. note is a line to log.
func chooseMethod(m Method, si ServerInfo) (method Method, note string, err error) {
	if m == MethodAuto {
		m = MethodInsert
		if si.LocalInfile {
			m = MethodLoadData
		} else {
			note = "local_infile is OFF on the server: loading with batched INSERTs"
		}
	}
	if m == MethodLoadData && !si.LocalInfile {
		return m, note, usage.Errorf("--load-method load-data needs local_infile=ON on the server (SET GLOBAL local_infile=1), or use --load-method insert")
	}
	return m, note, nil
}

// plan decides what to do with each table of the schema, from options that
// passed check and the server's report:
//   - without FromTable, the tables must not exist (or are dropped with
//     Recreate) and are all created and loaded;
//   - with FromTable, the tables before it must exist and are kept; it
//     keeps its rows below FromRow and the tables after it are emptied (or
//     created when missing), then loaded.
//
// A created table has its primary key only, unless IndexesDuringLoad; the
// first of each kind is created with every index, which are then dropped,
// so that an engine or table options that cannot hold them fail before
// any row is loaded. A kept table lacking its secondary indexes (the
// load was interrupted while building them) gets them after the load.
func plan(opts PrepareOptions, method Method, rep *serverReport) (*loadPlan, error) {
	tabs, err := ddl.BuiltinTables(opts.Schema)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	names := opts.Schema.TableNames()
	// Keyed by the schema's names: the server's spelling matched them as
	// the server compares names (exactly with lower_case_table_names=0).
	existing := rep.existing(names)
	exists := map[string]bool{}
	for _, n := range existing {
		exists[n] = true
	}
	resumeIdx := -1
	if opts.FromTable != "" {
		resumeIdx = slices.Index(names, opts.FromTable) // check spelled it as the schema does
		for _, n := range names[:resumeIdx] {
			if !exists[n] {
				return nil, usage.Errorf("cannot resume at %s: table %s, which comes before it, does not exist in %s", opts.FromTable, n, rep.Database)
			}
		}
	} else if len(existing) > 0 && !opts.Recreate {
		return nil, usage.Errorf("table %s already exists in database %s (%d of the %d tables exist): use --recreate to drop and reload them, or joinbench cleanup",
			existing[0], rep.Database, len(existing), len(names))
	}

	p := &loadPlan{method: method, chunkSize: int64(opts.ChunkSize)}
	probed := map[ddl.TableKind]bool{}
	for i, t := range tabs {
		n := i + 1
		if t.Kind == ddl.LevelTable {
			n = i - opts.Schema.Tables + 1
		}
		name := t.Name
		tp := tablePlan{BuiltinTable: t, n: n, first: 1, from: 1, to: opts.Gen.TableSize}
		switch {
		case resumeIdx >= 0 && i < resumeIdx: // loaded before the interruption
			if rep.Bare[name] && t.AddIndexes != "" {
				p.indexAfter = append(p.indexAfter, t)
			}
			continue
		case resumeIdx >= 0 && exists[name]:
			q := sqllex.QuoteIdent(t.Name)
			tp.clear = "TRUNCATE TABLE " + q
			if i == resumeIdx {
				tp.from = opts.FromRow
				tp.clear = "DELETE FROM " + q + " WHERE id >= " + strconv.FormatInt(tp.from, 10)
			}
			// left without them by the interrupted load
			tp.bare = rep.Bare[name]
			if tp.from > tp.to && tp.bare && t.AddIndexes != "" {
				// every row is in (interrupted while indexing): no
				// session finishes it, so the index stage adds them
				p.indexAfter = append(p.indexAfter, t)
			}
		default:
			tp.drop = exists[name]
			create := t.CreateBare
			if opts.IndexesDuringLoad {
				create = t.Create
			}
			if create == t.CreateBare && !probed[t.Kind] {
				probed[t.Kind] = true
				create = t.Create
			}
			tp.create = create
			if create != t.CreateBare && !opts.IndexesDuringLoad {
				if tp.dropIndexes, err = dropSecondaryIndexes(t); err != nil {
					return nil, err
				}
			}
			tp.bare = !opts.IndexesDuringLoad
		}
		p.tables = append(p.tables, tp)
	}
	p.ranges = splitRanges(p.tables, opts.Threads, opts.ChunkSize)
	if !opts.NoAnalyze {
		p.analyze = names
	}
	return p, nil
}

// splitRanges cuts the tables' rows into the ranges sessions take in
// turn. Concurrent sessions inserting into one table contend on its index
// pages, so a table bigger than one chunk is split only when there are too
// few tables (fewer than twice the threads) to keep every thread busy, and
// then into at most threads ranges of whole chunks' worth.
func splitRanges(tables []tablePlan, threads, chunkSize int) []rowRange {
	var out []rowRange
	for ti, t := range tables {
		rows := t.to - t.from + 1
		parts := int64(threads)
		if len(tables) >= 2*threads {
			parts = 1
		}
		if chunks := (rows + int64(chunkSize) - 1) / int64(chunkSize); chunks < parts {
			parts = chunks
		}
		if parts < 1 {
			parts = 1
		}
		per := (rows + parts - 1) / parts
		for from := t.from; from <= t.to; from += per {
			out = append(out, rowRange{table: ti, from: from, to: min(from+per-1, t.to)})
		}
	}
	return out
}

// dropSecondaryIndexes returns the ALTER TABLE dropping every index of t
// but the primary key, or "" when it has none.
func dropSecondaryIndexes(t ddl.BuiltinTable) (string, error) {
	s, err := ddl.ParseSchema(t.Create)
	if err != nil {
		return "", fmt.Errorf("built-in schema of %s: %w", t.Name, err)
	}
	var drops []string
	for _, ix := range s.Table(t.Name).Indexes {
		if !ix.Primary {
			drops = append(drops, "DROP INDEX "+sqllex.QuoteIdent(ix.Name))
		}
	}
	if len(drops) == 0 {
		return "", nil
	}
	return "ALTER TABLE " + sqllex.QuoteIdent(t.Name) + " " + strings.Join(drops, ", "), nil
}
