package ddl

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
	"golang.org/x/sync/errgroup"

	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// LoadMethod is how rows are sent to the server.
type LoadMethod int

const (
	// LoadAuto uses LOAD DATA LOCAL INFILE when the server allows it
	// (local_infile=ON) and batched INSERTs otherwise.
	LoadAuto LoadMethod = iota
	// LoadData streams each chunk with LOAD DATA LOCAL INFILE from the
	// generator, through an io.Pipe: no file is written.
	LoadData
	// LoadInsert sends multi-row INSERTs sized to max_allowed_packet.
	LoadInsert
)

// ParseLoadMethod maps "auto", "load-data" or "insert" to a LoadMethod.
func ParseLoadMethod(s string) (LoadMethod, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return LoadAuto, nil
	case "load-data":
		return LoadData, nil
	case "insert":
		return LoadInsert, nil
	}
	return 0, fmt.Errorf("unknown load method %q (want auto, load-data or insert)", s)
}

func (m LoadMethod) String() string {
	return [...]string{"auto", "load-data", "insert"}[m]
}

// PrepareOptions configure Prepare.
type PrepareOptions struct {
	Schema SchemaOptions
	Gen    GenOptions
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
	Method    LoadMethod
	// SkipBinlog sets sql_log_bin=0 for the load sessions so replicas do
	// not receive the rows (needs the privilege to set it).
	SkipBinlog bool
	// NoAnalyze skips the final ANALYZE TABLE.
	NoAnalyze bool
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
	Method   LoadMethod
	Tables   []TableStats
	Rows     int64
	Duration time.Duration // create to analyze
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
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("load interrupted; resume with the same options plus --from-table %s --from-row %d", e.Table, e.Row)
}

func (o *PrepareOptions) check() error {
	var err error
	if o.Schema, err = o.Schema.Normalize(); err != nil {
		return usage.Wrap(err)
	}
	if o.Gen.TableSize < 1 {
		return usage.Errorf("--table-size must be at least 1, got %d", o.Gen.TableSize)
	}
	if _, err := NewGenerator(o.Gen); err != nil {
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
	if o.FromTable == "" && o.FromRow != 0 {
		return usage.Errorf("--from-row needs --from-table")
	}
	if o.FromTable != "" {
		found := false
		for _, n := range o.Schema.TableNames() {
			found = found || strings.EqualFold(n, o.FromTable)
		}
		if !found {
			return usage.Errorf("--from-table %s is not a table of this schema (%s)", o.FromTable, strings.Join(o.Schema.TableNames(), ", "))
		}
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

// ServerInfo is what Prepare needs to know about the server.
type ServerInfo struct {
	Version        string
	VersionComment string
	LocalInfile    bool
	MaxPacket      int64
}

// CheckServer asks the server who it is. A server that does not answer the
// MySQL system variables is not MySQL-compatible: a user error.
func CheckServer(ctx context.Context, db *sql.DB) (*ServerInfo, error) {
	var si ServerInfo
	var localInfile sql.NullString
	err := db.QueryRowContext(ctx, "SELECT @@version, @@version_comment, @@local_infile, @@max_allowed_packet").
		Scan(&si.Version, &si.VersionComment, &localInfile, &si.MaxPacket)
	if err != nil {
		var me *mysql.MySQLError
		if errors.As(err, &me) {
			return nil, usage.Errorf("the server does not look MySQL-compatible (SELECT @@version, @@version_comment, @@local_infile, @@max_allowed_packet: %v)", err)
		}
		return nil, usage.Errorf("cannot query the server: %v", err)
	}
	si.LocalInfile = localInfile.String == "1" || strings.EqualFold(localInfile.String, "ON")
	return &si, nil
}

// ExistingTables returns which of names exist in the connection's current
// database, in the order of names.
func ExistingTables(ctx context.Context, db *sql.DB, names []string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()")
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		have[strings.ToLower(n)] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if have[strings.ToLower(n)] {
			out = append(out, n)
		}
	}
	return out, nil
}

// MissingTables returns those of names that the connection's current
// database does not have, in the order given.
func MissingTables(ctx context.Context, db *sql.DB, names []string) ([]string, error) {
	have, err := ExistingTables(ctx, db, names)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if !slices.Contains(have, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

func currentDatabase(ctx context.Context, db *sql.DB) (string, error) {
	var name sql.NullString
	if err := db.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&name); err != nil {
		return "", fmt.Errorf("current database: %w", err)
	}
	if !name.Valid || name.String == "" {
		return "", usage.Errorf("no database selected: name one with --database or in the DSN")
	}
	return name.String, nil
}

// Prepare creates the built-in tables and loads them with generated rows,
// then runs ANALYZE TABLE. db must select the target database.
func Prepare(ctx context.Context, db *sql.DB, opts PrepareOptions) (*PrepareResult, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	start := time.Now()
	si, err := CheckServer(ctx, db)
	if err != nil {
		return nil, err
	}
	dbName, err := currentDatabase(ctx, db)
	if err != nil {
		return nil, err
	}
	method := opts.Method
	if method == LoadAuto {
		method = LoadInsert
		if si.LocalInfile {
			method = LoadData
		} else {
			opts.logf("local_infile is OFF on the server: loading with batched INSERTs")
		}
	}
	if method == LoadData && !si.LocalInfile {
		return nil, usage.Errorf("--load-method load-data needs local_infile=ON on the server (SET GLOBAL local_infile=1), or use --load-method insert")
	}
	tabs, err := BuiltinTables(opts.Schema)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	gen, _ := NewGenerator(opts.Gen)
	res := &PrepareResult{Method: method}

	// What to do with each table.
	names := opts.Schema.TableNames()
	existing, err := ExistingTables(ctx, db, names)
	if err != nil {
		return nil, err
	}
	exists := map[string]bool{}
	for _, n := range existing {
		exists[strings.ToLower(n)] = true
	}
	resumeIdx := -1
	if opts.FromTable != "" {
		for i, n := range names {
			if strings.EqualFold(n, opts.FromTable) {
				resumeIdx = i
			}
		}
		for _, n := range names[:resumeIdx] {
			if !exists[strings.ToLower(n)] {
				return nil, usage.Errorf("cannot resume at %s: table %s, which comes before it, does not exist in %s", opts.FromTable, n, dbName)
			}
		}
	} else if len(existing) > 0 && !opts.Recreate {
		return nil, usage.Errorf("table %s already exists in database %s (%d of the %d tables exist): use --recreate to drop and reload them, or joinbench cleanup",
			existing[0], dbName, len(existing), len(names))
	}

	type job struct {
		tab      BuiltinTable
		n        int // number within its kind
		from, to int64
		bare     bool // without its secondary indexes: added once its rows are in
	}
	var jobs []job
	probed := map[TableKind]bool{}
	for i, t := range tabs {
		n := i + 1
		if t.Kind == LevelTable {
			n = i - opts.Schema.Tables + 1
		}
		q := sqllex.QuoteIdent(t.Name)
		create := t.CreateBare
		if opts.IndexesDuringLoad {
			create = t.Create
		}
		from := int64(1)
		bare := false
		switch {
		case resumeIdx >= 0 && i < resumeIdx:
			continue // loaded before the interruption
		case resumeIdx >= 0 && exists[strings.ToLower(t.Name)]:
			from = 1
			stmt := "TRUNCATE TABLE " + q
			if i == resumeIdx {
				from = opts.FromRow
				stmt = "DELETE FROM " + q + " WHERE id >= " + strconv.FormatInt(from, 10)
			}
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				return nil, fmt.Errorf("resume %s: %w", t.Name, err)
			}
			// left without them by the interrupted load
			if bare, err = lacksIndexes(ctx, db, t.Name); err != nil {
				return nil, err
			}
		default:
			if exists[strings.ToLower(t.Name)] {
				if _, err := db.ExecContext(ctx, "DROP TABLE "+q); err != nil {
					return nil, fmt.Errorf("drop %s: %w", t.Name, err)
				}
			}
			if create == t.CreateBare && !probed[t.Kind] {
				// The first table of each kind is created with every
				// index, then emptied of the secondary ones, so that an
				// engine or table options that cannot hold them fail now
				// rather than after the rows are in.
				probed[t.Kind] = true
				create = t.Create
			}
			if _, err := db.ExecContext(ctx, create); err != nil {
				return nil, createError(t.Name, opts.Schema, err)
			}
			if create != t.CreateBare && !opts.IndexesDuringLoad {
				if err := dropSecondaryIndexes(ctx, db, t); err != nil {
					return nil, err
				}
			}
			bare = !opts.IndexesDuringLoad
		}
		jobs = append(jobs, job{tab: t, n: n, from: from, to: opts.Gen.TableSize, bare: bare})
	}

	// Row ranges: with fewer tables than twice the threads, a table
	// bigger than one chunk is split so that every thread has work.
	type task struct {
		j        *job
		from, to int64
		state    *rangeState
	}
	var tasks []task
	states := map[string][]*rangeState{}
	for ji := range jobs {
		j := &jobs[ji]
		rows := j.to - j.from + 1
		// Concurrent sessions inserting into one table contend on its
		// index pages, so split tables only when there are too few of
		// them to keep every thread busy.
		parts := int64(opts.Threads)
		if len(jobs) >= 2*opts.Threads {
			parts = 1
		}
		if chunks := (rows + int64(opts.ChunkSize) - 1) / int64(opts.ChunkSize); chunks < parts {
			parts = chunks
		}
		if parts < 1 {
			parts = 1
		}
		per := (rows + parts - 1) / parts
		for from := j.from; from <= j.to; from += per {
			to := min(from+per-1, j.to)
			st := &rangeState{to: to}
			st.next.Store(from)
			tasks = append(tasks, task{j: j, from: from, to: to, state: st})
			states[j.tab.Name] = append(states[j.tab.Name], st)
		}
		if opts.Progress != nil {
			opts.Progress.Start(j.tab.Name, opts.Gen.TableSize, j.from-1)
		}
	}

	// Load.
	var remaining sync.Map // table -> *atomic.Int64 ranges left
	for _, j := range jobs {
		c := new(atomic.Int64)
		c.Store(int64(len(states[j.tab.Name])))
		remaining.Store(j.tab.Name, c)
	}
	stats := make([]TableStats, len(jobs))
	statIdx := map[string]int{}
	for i, j := range jobs {
		stats[i].Name = j.tab.Name
		statIdx[j.tab.Name] = i
	}
	var statMu sync.Mutex
	work := make(chan task)
	g, gctx := errgroup.WithContext(context.WithoutCancel(ctx))
	g.Go(func() error {
		defer close(work)
		for _, t := range tasks {
			select {
			case work <- t:
			case <-ctx.Done():
				return nil
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	for w := 0; w < min(opts.Threads, len(tasks)); w++ {
		g.Go(func() error {
			conn, err := loadSession(gctx, db, opts)
			if err != nil {
				return err
			}
			defer conn.Close()
			l := &loader{conn: conn, gen: gen, method: method, maxPacket: si.MaxPacket}
			for t := range work {
				tStart := time.Now()
				for from := t.from; from <= t.to; from += int64(opts.ChunkSize) {
					if ctx.Err() != nil || gctx.Err() != nil {
						break // the chunk in flight is finished; stop here
					}
					to := min(from+int64(opts.ChunkSize)-1, t.to)
					if err := l.chunk(gctx, t.j.tab, t.j.n, from, to); err != nil {
						return fmt.Errorf("load %s rows %d..%d: %w", t.j.tab.Name, from, to, err)
					}
					t.state.next.Store(to + 1)
					if opts.Progress != nil {
						opts.Progress.Add(t.j.tab.Name, to-from+1)
					}
				}
				statMu.Lock()
				s := &stats[statIdx[t.j.tab.Name]]
				s.Load += time.Since(tStart)
				if t.state.next.Load() > t.to {
					s.Rows += t.to - t.from + 1
				}
				statMu.Unlock()
				if t.state.next.Load() <= t.to {
					continue
				}
				c, _ := remaining.Load(t.j.tab.Name)
				if c.(*atomic.Int64).Add(-1) != 0 {
					continue
				}
				if opts.Progress != nil {
					opts.Progress.Done(t.j.tab.Name)
				}
				// The table's last row is in: build its secondary indexes
				// now, on this session, while the other sessions keep
				// loading, so that no thread idles between the loading
				// and the indexing of the tables. An interruption here
				// leaves the table without them; the resumed load adds
				// them (see below).
				if t.j.bare && t.j.tab.AddIndexes != "" {
					if opts.Progress == nil {
						opts.logf("adding the secondary indexes of %s", t.j.tab.Name)
					}
					if err := addIndexes(ctx, gctx, db, conn, t.j.tab, &stats[statIdx[t.j.tab.Name]], &statMu); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	err = g.Wait()
	if ctx.Err() != nil || err != nil {
		if opts.Progress != nil {
			opts.Progress.Finish()
		}
		// The resume point: the first row not committed, in table order.
		for _, j := range jobs {
			first := int64(-1)
			for _, st := range states[j.tab.Name] {
				if n := st.next.Load(); n <= st.to && (first < 0 || n < first) {
					first = n
				}
			}
			if first >= 0 {
				ie := &InterruptedError{Table: j.tab.Name, Row: first}
				if err != nil && ctx.Err() == nil {
					return nil, fmt.Errorf("%w (%s)", err, ie.Error())
				}
				return nil, usage.Wrap(ie)
			}
		}
		if err != nil && ctx.Err() == nil {
			return nil, err
		}
		if len(jobs) > 0 { // every row is in; only indexes and ANALYZE are left
			last := jobs[len(jobs)-1]
			return nil, usage.Wrap(&InterruptedError{Table: last.tab.Name, Row: last.to + 1})
		}
		return nil, ctx.Err()
	}

	// Secondary indexes of the tables before the resume point that an
	// interrupted load left without them (the others have theirs already).
	var idxMu sync.Mutex
	ig, ictx := errgroup.WithContext(ctx)
	ig.SetLimit(opts.Threads)
	for _, t := range tabs {
		if t.AddIndexes == "" {
			continue
		}
		ig.Go(func() error {
			missing, err := lacksIndexes(ictx, db, t.Name)
			if err != nil || !missing {
				return err
			}
			opts.logf("adding the secondary indexes of %s", t.Name)
			s := time.Now()
			if _, err := db.ExecContext(ictx, t.AddIndexes); err != nil {
				return fmt.Errorf("add indexes to %s: %w", t.Name, err)
			}
			idxMu.Lock()
			if i, ok := statIdx[t.Name]; ok {
				stats[i].Indexing = time.Since(s)
			}
			idxMu.Unlock()
			return nil
		})
	}
	if err := ig.Wait(); err != nil {
		if opts.Progress != nil {
			opts.Progress.Finish()
		}
		return nil, err
	}
	if opts.Progress != nil {
		opts.Progress.Finish()
	}
	if !opts.NoAnalyze {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = sqllex.QuoteIdent(n)
		}
		opts.logf("ANALYZE TABLE %s", strings.Join(names, ", "))
		if err := drain(db.QueryContext(ctx, "ANALYZE TABLE "+strings.Join(quoted, ", "))); err != nil {
			return nil, fmt.Errorf("analyze: %w", err)
		}
	}
	res.Tables = stats
	for _, s := range stats {
		res.Rows += s.Rows
	}
	res.Duration = time.Since(start)
	return res, nil
}

// dropSecondaryIndexes drops every index of t but the primary key.
func dropSecondaryIndexes(ctx context.Context, db *sql.DB, t BuiltinTable) error {
	s, err := ParseSchema(t.Create)
	if err != nil {
		return fmt.Errorf("built-in schema of %s: %w", t.Name, err)
	}
	var drops []string
	for _, ix := range s.Table(t.Name).Indexes {
		if !ix.Primary {
			drops = append(drops, "DROP INDEX "+sqllex.QuoteIdent(ix.Name))
		}
	}
	if len(drops) == 0 {
		return nil
	}
	if _, err := db.ExecContext(ctx, "ALTER TABLE "+sqllex.QuoteIdent(t.Name)+" "+strings.Join(drops, ", ")); err != nil {
		return fmt.Errorf("drop the secondary indexes of %s before loading it: %w", t.Name, err)
	}
	return nil
}

// addIndexes runs t's ALTER TABLE adding its secondary indexes on conn and
// records how long it took. It stops when either context ends: ctx is the
// caller's (Ctrl-C), gctx the load's (another session failed). A server
// goes on with a statement whose client went away, so the ALTER TABLE is
// then killed from another connection of db.
func addIndexes(ctx, gctx context.Context, db *sql.DB, conn *sql.Conn, t BuiltinTable, st *TableStats, mu *sync.Mutex) error {
	var id int64
	if err := conn.QueryRowContext(gctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return fmt.Errorf("add indexes to %s: %w", t.Name, err)
	}
	actx, cancel := context.WithCancel(gctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	killed := make(chan struct{})
	stopKill := context.AfterFunc(actx, func() {
		defer close(killed)
		kctx, kcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer kcancel()
		_, _ = db.ExecContext(kctx, "KILL QUERY "+strconv.FormatInt(id, 10))
	})
	start := time.Now()
	_, err := conn.ExecContext(actx, t.AddIndexes)
	if !stopKill() { // the kill started: let it finish before returning
		<-killed
	}
	if err != nil {
		return fmt.Errorf("add indexes to %s: %w", t.Name, err)
	}
	mu.Lock()
	st.Indexing = time.Since(start)
	mu.Unlock()
	return nil
}

// rangeState tracks the first uncommitted row of one row range.
type rangeState struct {
	next atomic.Int64
	to   int64
}

func drain(rows *sql.Rows, err error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

func createError(table string, o SchemaOptions, err error) error {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1286: // unknown storage engine
			return usage.Errorf("create %s: --engine %s: %s", table, o.Engine, me.Message)
		case 1069, 1070, 1071: // too many keys, key parts, key too long
			return usage.Errorf("create %s: --engine %s cannot hold the workload's indexes: %s", table, o.Engine, me.Message)
		case 1064, 1478, 1911, 1115, 1273: // syntax, bad table option, unknown option, charset, collation
			return usage.Errorf("create %s: --table-options %q: %s", table, o.TableOptions, me.Message)
		}
	}
	return fmt.Errorf("create %s: %w", table, err)
}

// lacksIndexes reports whether table has no secondary index.
func lacksIndexes(ctx context.Context, db *sql.DB, table string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.STATISTICS
		WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'`, table).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("indexes of %s: %w", table, err)
	}
	return n == 0, nil
}

// loadSession opens a connection with the bulk-load session settings:
//   - time_zone '+00:00': TIMESTAMP values store the same instant on
//     every server whatever its time zone;
//   - unique_checks=0 when the indexes are built during the load: InnoDB
//     may buffer unique secondary index changes (the generated UUIDs are
//     unique by construction), and MariaDB 10.6+ sorts the rows of a
//     statement into an empty table and builds its indexes at once. With
//     deferred indexes unique_checks stays 1: that sorting only costs
//     when the table has no secondary index to build (a LOAD DATA of a
//     whole 100,000-row table took 30% more server CPU with it);
//   - foreign_key_checks=0: harmless for this schema, needed for users'
//     variants with foreign keys to load tables in any order;
//   - sql_mode without NO_BACKSLASH_ESCAPES, which the row encoding needs;
//   - sql_log_bin=0 only when asked (SkipBinlog), since replicas then miss
//     the rows and it needs a privilege.
func loadSession(ctx context.Context, db *sql.DB, opts PrepareOptions) (*sql.Conn, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	stmts := []string{
		"SET SESSION time_zone = '+00:00'",
		"SET SESSION unique_checks = " + map[bool]string{true: "0", false: "1"}[opts.IndexesDuringLoad],
		"SET SESSION foreign_key_checks = 0",
		"SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'NO_BACKSLASH_ESCAPES', '')",
	}
	if opts.SkipBinlog {
		stmts = append(stmts, "SET SESSION sql_log_bin = 0")
	}
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			conn.Close()
			if opts.SkipBinlog && strings.Contains(q, "sql_log_bin") {
				return nil, usage.Errorf("--skip-binlog: %v", err)
			}
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	return conn, nil
}

// loader sends chunks of rows on one connection.
type loader struct {
	conn      *sql.Conn
	gen       *Generator
	method    LoadMethod
	maxPacket int64
	buf       []byte
}

var readerSeq atomic.Int64

// pipeBatch is how many bytes the generator hands the driver at a time.
const pipeBatch = 256 << 10

func (l *loader) chunk(ctx context.Context, t BuiltinTable, n int, from, to int64) error {
	cols := Columns(t.Kind)
	if l.method == LoadInsert {
		return l.insertChunk(ctx, t, n, cols, from, to)
	}
	name := "joinbench-" + strconv.FormatInt(readerSeq.Add(1), 10)
	pr, pw := io.Pipe()
	mysql.RegisterReaderHandler(name, func() io.Reader { return pr })
	defer mysql.DeregisterReaderHandler(name)
	go func() {
		buf := make([]byte, 0, pipeBatch+4096)
		for id := from; id <= to; id++ {
			buf = l.gen.AppendRow(buf, t.Kind, n, id, TSV)
			if len(buf) >= pipeBatch {
				if _, err := pw.Write(buf); err != nil {
					return
				}
				buf = buf[:0]
			}
		}
		if len(buf) > 0 {
			if _, err := pw.Write(buf); err != nil {
				return
			}
		}
		pw.Close()
	}()
	q := "LOAD DATA LOCAL INFILE 'Reader::" + name + "' INTO TABLE " + sqllex.QuoteIdent(t.Name) +
		" CHARACTER SET binary FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' (" + strings.Join(cols, ",") + ")"
	_, err := l.conn.ExecContext(ctx, q)
	pr.CloseWithError(errors.New("load ended")) // unblocks the generator if the server stopped reading
	if err != nil {
		return err
	}
	return nil
}

func (l *loader) insertChunk(ctx context.Context, t BuiltinTable, n int, cols []string, from, to int64) error {
	limit := int(min(l.maxPacket, 16<<20)) - 1024
	head := "INSERT INTO " + sqllex.QuoteIdent(t.Name) + " (" + strings.Join(cols, ",") + ") VALUES "
	tx, err := l.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	l.buf = append(l.buf[:0], head...)
	rows := 0
	var row []byte
	for id := from; id <= to; id++ {
		row = l.gen.AppendRow(row[:0], t.Kind, n, id, SQLValues)
		if rows > 0 && len(l.buf)+1+len(row) > limit {
			if _, err := tx.ExecContext(ctx, string(l.buf)); err != nil {
				return err
			}
			l.buf, rows = append(l.buf[:0], head...), 0
		}
		if rows > 0 {
			l.buf = append(l.buf, ',')
		}
		l.buf = append(l.buf, row...)
		rows++
	}
	if rows > 0 {
		if _, err := tx.ExecContext(ctx, string(l.buf)); err != nil {
			return err
		}
	}
	return tx.Commit()
}
