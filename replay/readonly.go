package replay

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/usage"
)

// refuseWrites is --read-only: a usage error at the first statement, of the
// enabled scenarios writing (in corpus order), that is not a plain read,
// naming its kind and the other scenarios that write; nil when writing is
// empty. It runs when the scenarios are compiled, before any server is
// connected to or run folder made.
func refuseWrites(writing []*corpus.Scenario) error {
	return refuseWritesAs("--read-only", writing)
}

// ImportedTag is the tag joinbench import gives every scenario it
// writes: those that write run only with Options.ImportedWrites.
const ImportedTag = "imported"

// refuseImportedWrites keeps an imported corpus read-only unless told
// otherwise: the writes among the imported scenarios are refused as
// --read-only refuses them.
func refuseImportedWrites(writing []*corpus.Scenario) error {
	var imported []*corpus.Scenario
	for _, s := range writing {
		if slices.Contains(s.Tags, ImportedTag) {
			imported = append(imported, s)
		}
	}
	return refuseWritesAs("imported scenarios run read-only unless --imported-writes", imported)
}

// refuseWritesAs is refuseWrites with the rule named by why.
func refuseWritesAs(why string, writing []*corpus.Scenario) error {
	if len(writing) == 0 {
		return nil
	}
	s := writing[0]
	var n int
	var st corpus.StmtSpan
	for n, st = range s.Statements {
		if !st.Kind.PlainRead() {
			break
		}
	}
	what := string(st.Kind)
	if st.Kind == corpus.StmtUnparsed {
		what = "unparsed (the SQL parser cannot read it, so it is not known to only read; joinbench lint says why)"
	}
	msg := fmt.Sprintf("%s: statement %d of scenario %s is %s, not a plain read: %s", why, n+1, s.Name, what, excerpt(s.Source[st.Start:st.End]))
	if more := writing[1:]; len(more) > 0 {
		names := make([]string, len(more))
		for i, m := range more {
			names[i] = fmt.Sprintf("%s (%s)", m.Name, strings.Join(kindNames(m.Writes()), ", "))
		}
		msg += fmt.Sprintf("; %d more scenario(s) not read-only: %s", len(more), strings.Join(names, ", "))
	}
	line, col := sqllex.Position(s.Source, st.Start)
	return usage.Wrap(&corpus.Error{Path: s.Path, Line: line, Col: col, Msg: msg})
}

// excerpt is the start of a statement's text, on one line, for a message.
func excerpt(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return text
}

// kindNames returns the kinds as text, for messages and run.json.
func kindNames(kinds []corpus.StmtKind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}

// readOnlySQL makes every later transaction of the session read-only, the
// single statements of autocommit included: the server then refuses a
// write the parse cannot see (a stored function called by a SELECT, a
// trigger) with ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION (1792) instead of
// doing it. Temporary tables stay writable, as the server allows them.
const readOnlySQL = "SET SESSION TRANSACTION READ ONLY"

// readOnlySession puts a connection that runs the scenarios' statements
// (a worker's, a work sampler's, an explainer's) in read-only mode under
// Config.ReadOnly; it does nothing otherwise.
func (e *engine) readOnlySession(ctx context.Context, conn *sql.Conn) error {
	if !e.cfg.ReadOnly {
		return nil
	}
	if _, err := conn.ExecContext(ctx, readOnlySQL); err != nil {
		return fmt.Errorf("%s: %w", readOnlySQL, err)
	}
	return nil
}
