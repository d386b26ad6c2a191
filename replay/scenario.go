package replay

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/results"
)

// Statement is one rendered statement: SQL text with `?` placeholders and
// the values to bind to them.
type Statement = corpus.Statement

// Renderer yields the statements of one execution of a scenario. A renderer
// belongs to one worker thread; what Next returns is valid until the next
// call.
type Renderer interface {
	Next() []Statement
	// Values appends the values chosen by the last Next, as text, in
	// placeholder order, to dst.
	Values(dst []string) []string
}

// Scenario is one scenario compiled for a run, as the engine needs it.
type Scenario struct {
	Name  string
	Hash  string // template hash, stored on every execution row
	Write bool   // some statement is not a plain read (corpus.Template.Write): no EXPLAIN ANALYZE
	// Count is how many times one event executes the scenario; 0 disables it.
	Count int
	// Queries lists every distinct SQL text the scenario can render; each
	// is prepared once per connection.
	Queries []string
	// NewRenderer returns the renderer of one thread. Distinct threads get
	// distinct, reproducible value streams for one seed.
	NewRenderer func(seed uint64, thread int) Renderer
}

// Sink receives what a run records. results.RunDir provides one (see
// ResultsSink); tests use an in-memory one.
type Sink interface {
	// NewExecutionWriter returns a writer owned by one writer goroutine.
	NewExecutionWriter() (ExecutionWriter, error)
	WritePlan(p results.Plan) error // safe for concurrent use
	WriteStatus(rows []results.Status) error
}

// ExecutionWriter streams execution rows; it is not safe for concurrent use
// and must not keep rows after Write returns.
type ExecutionWriter interface {
	Write(rows []results.Execution) error
	Close() error
}

// IdleRoller is an ExecutionWriter that makes the rows it holds durable
// when asked while no rows come (results.ExecutionWriter finishes its file
// once it is old enough): the engine's writer calls RollIfOld whenever it
// waits for rows.
type IdleRoller interface {
	RollIfOld() error
}

// PendingWriter is an ExecutionWriter whose Close has rows still to write
// (results.ExecutionWriter with a journal, made Parquet at Close): the
// engine says so when that is long work.
type PendingWriter interface {
	PendingRows() int64
}

// StatusSampler reads server counters; each call returns the changes since
// the previous call.
type StatusSampler interface {
	Sample(ctx context.Context, now time.Time) ([]results.Status, error)
}

// PlanText is one EXPLAIN output of a statement in one format.
type PlanText struct {
	Format string // json, tree, traditional, analyze
	Text   string
}

// Explainer captures the plan of a statement on a connection and hashes its
// shape (access types, join order, keys), so equal plans hash equal.
type Explainer interface {
	Explain(ctx context.Context, conn *sql.Conn, query string, args []any, analyze bool) (hash string, plans []PlanText, err error)
}

// Checksummer hashes a result set row by row.
type Checksummer interface {
	AddRow(cols []sql.RawBytes)
	Sum() string
}

// returnsRows reports whether a statement is read with Query (it returns a
// result set) rather than Exec.
func returnsRows(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	for strings.HasPrefix(q, "/*") {
		end := strings.Index(q, "*/")
		if end < 0 {
			break
		}
		if strings.HasPrefix(q, "/*!") || strings.HasPrefix(q, "/*+") {
			break
		}
		q = strings.TrimLeft(q[end+2:], " \t\r\n(")
	}
	word := q
	if i := strings.IndexAny(q, " \t\r\n(/"); i >= 0 {
		word = q[:i]
	}
	switch strings.ToUpper(word) {
	case "SELECT", "WITH", "SHOW", "EXPLAIN", "DESCRIBE", "DESC", "VALUES", "TABLE", "ANALYZE", "CALL":
		return true
	}
	return false
}
