package replay

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

// Kinds of action.
const (
	ActionSQL     = "sql"     // a statement, as the session's method says (TOI on Galera by default)
	ActionRSU     = "rsu"     // a statement under wsrep_OSU_method=RSU; on "all", each node in turn
	ActionExec    = "exec"    // an external command (pt-online-schema-change ...)
	ActionChunked = "chunked" // a DELETE or UPDATE in chunks, each its own transaction
	ActionPause   = "pause"   // SIGSTOP of the node's server, SIGCONT after a duration
	ActionLock    = "lock"    // LOCK TABLES ... WRITE held on the node for a duration
	ActionRestart = "restart" // clean stop of the node's server, start again after a duration
)

// AllEndpoints is the target of an action run on every endpoint in turn.
const AllEndpoints = "all"

// Chunk modes of a chunked DML.
const (
	ChunkByKey   = "pk"    // primary-key ranges of SIZE values
	ChunkByLimit = "limit" // LIMIT SIZE, repeated until fewer rows are affected
)

// ActionSpec is one action of a run, as parsed from its text:
//
//	OFFSET@TARGET: KIND [ARGS][: TEXT]
//
// OFFSET is a Go duration into the measured phase; TARGET an endpoint (a
// sandbox node name such as node2, its number from 1 in the order the
// endpoints were given, its host:port, or "all" for a rolling RSU change).
type ActionSpec struct {
	Text   string        // as given
	Offset time.Duration // into the measured phase
	Target string        // as given; resolved when the endpoints are open
	Kind   string
	// Statement is the SQL of sql, rsu and chunked; Command the shell
	// command of exec; Tables those lock holds.
	Statement string
	Command   string
	Tables    []string
	// For is how long pause and lock hold, and how long restart leaves
	// the server down.
	For       time.Duration
	ChunkSize int64
	ChunkBy   string
}

// ParseActions parses --action specs and the lines of --actions-file
// files (one spec per line; blank lines and lines starting with # are
// skipped), specs first. A mistake is a usage error naming the spec.
func ParseActions(specs []string, files []string) ([]ActionSpec, error) {
	var out []ActionSpec
	for _, s := range specs {
		a, err := ParseAction(s)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, usage.Errorf("--actions-file: %v", err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		line := 0
		for sc.Scan() {
			line++
			t := strings.TrimSpace(sc.Text())
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			a, err := ParseAction(t)
			if err != nil {
				fh.Close()
				return nil, usage.Errorf("%s:%d: %v", f, line, err)
			}
			out = append(out, a)
		}
		err = sc.Err()
		fh.Close()
		if err != nil {
			return nil, usage.Errorf("--actions-file %s: %v", f, err)
		}
	}
	return out, nil
}

// ParseAction parses one action spec (see ActionSpec).
func ParseAction(text string) (ActionSpec, error) {
	a := ActionSpec{Text: strings.TrimSpace(text)}
	bad := func(format string, args ...any) (ActionSpec, error) {
		return ActionSpec{}, usage.Errorf("--action %q: %s", a.Text, fmt.Sprintf(format, args...))
	}
	at, rest, ok := strings.Cut(a.Text, "@")
	if !ok {
		return bad("expected OFFSET@ENDPOINT: KIND ..., e.g. '30s@node2: sql: ALTER TABLE main1 ADD INDEX k (year_field)'")
	}
	off, err := time.ParseDuration(strings.TrimSpace(at))
	if err != nil || off < 0 {
		return bad("offset %q is not a duration such as 30s or 1m30s", strings.TrimSpace(at))
	}
	a.Offset = off
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) < 2 {
		return bad("expected ': KIND' after the endpoint")
	}
	// host:port: the part after the first colon is all digits.
	if p := strings.TrimSpace(parts[1]); p != "" && strings.Trim(p, "0123456789") == "" {
		parts = strings.SplitN(rest, ":", 4)
		if len(parts) < 3 {
			return bad("expected ': KIND' after the endpoint")
		}
		parts = append([]string{parts[0] + ":" + strings.TrimSpace(parts[1])}, parts[2:]...)
	}
	a.Target = strings.TrimSpace(parts[0])
	if a.Target == "" {
		return bad("no endpoint after @")
	}
	head := strings.Fields(parts[1])
	if len(head) == 0 {
		return bad("no action kind after the endpoint")
	}
	a.Kind = strings.ToLower(head[0])
	args := head[1:]
	text, hasText := "", len(parts) > 2
	if hasText {
		text = strings.TrimSpace(parts[2])
	}
	needText := func(what string) error {
		if text == "" {
			_, err := bad("%s needs %s after a second colon", a.Kind, what)
			return err
		}
		return nil
	}
	noText := func() error {
		if hasText {
			_, err := bad("%s takes nothing after its arguments", a.Kind)
			return err
		}
		return nil
	}
	duration := func(what string, optional bool) (time.Duration, error) {
		if len(args) == 0 && optional {
			return 0, nil
		}
		if len(args) != 1 {
			_, err := bad("%s takes one duration (%s), e.g. '%s 5s'", a.Kind, what, a.Kind)
			return 0, err
		}
		d, err := time.ParseDuration(args[0])
		if err != nil || d <= 0 {
			_, err := bad("%s: %q is not a positive duration", a.Kind, args[0])
			return 0, err
		}
		return d, nil
	}
	if a.Target == AllEndpoints && a.Kind != ActionRSU {
		return bad("only rsu runs on all endpoints (each in turn); name one endpoint for %s", a.Kind)
	}
	switch a.Kind {
	case ActionSQL, ActionRSU:
		if len(args) > 0 {
			return bad("%s takes no arguments before the statement", a.Kind)
		}
		if err := needText("the statement"); err != nil {
			return ActionSpec{}, err
		}
		a.Statement = text
	case ActionExec:
		if len(args) > 0 {
			return bad("exec takes no arguments before the command")
		}
		if err := needText("the command"); err != nil {
			return ActionSpec{}, err
		}
		a.Command = text
	case ActionChunked:
		if len(args) < 1 || len(args) > 2 {
			return bad("chunked takes the chunk size and optionally pk or limit, e.g. 'chunked 5000: DELETE ...'")
		}
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || n < 1 {
			return bad("chunk size %q is not a positive number of rows", args[0])
		}
		a.ChunkSize, a.ChunkBy = n, ChunkByKey
		if len(args) == 2 {
			a.ChunkBy = strings.ToLower(args[1])
			if a.ChunkBy != ChunkByKey && a.ChunkBy != ChunkByLimit {
				return bad("chunks are by pk or by limit, not %q", args[1])
			}
		}
		if err := needText("the DELETE or UPDATE"); err != nil {
			return ActionSpec{}, err
		}
		a.Statement = text
		if _, err := splitDML(a.Statement); err != nil {
			return bad("%v", err)
		}
	case ActionPause:
		if a.For, err = duration("how long the server stays stopped", false); err != nil {
			return ActionSpec{}, err
		}
		if err := noText(); err != nil {
			return ActionSpec{}, err
		}
	case ActionLock:
		if a.For, err = duration("how long the lock is held", false); err != nil {
			return ActionSpec{}, err
		}
		if err := needText("the tables to lock"); err != nil {
			return ActionSpec{}, err
		}
		for _, t := range strings.Split(text, ",") {
			if t = strings.TrimSpace(t); t != "" {
				a.Tables = append(a.Tables, t)
			}
		}
	case ActionRestart:
		if a.For, err = duration("how long the server stays down", true); err != nil {
			return ActionSpec{}, err
		}
		if err := noText(); err != nil {
			return ActionSpec{}, err
		}
	default:
		return bad("unknown kind %q: use sql, rsu, exec, chunked, pause, lock or restart", a.Kind)
	}
	return a, nil
}

// What describes what the action does, for the live output and results.
func (a *ActionSpec) What() string {
	switch a.Kind {
	case ActionSQL, ActionRSU:
		return a.Statement
	case ActionExec:
		return a.Command
	case ActionChunked:
		return fmt.Sprintf("%s (chunks of %d by %s)", a.Statement, a.ChunkSize, a.ChunkBy)
	case ActionPause:
		return fmt.Sprintf("SIGSTOP for %s", a.For)
	case ActionLock:
		return fmt.Sprintf("LOCK TABLES %s WRITE for %s", strings.Join(a.Tables, ", "), a.For)
	case ActionRestart:
		return fmt.Sprintf("stop, start after %s", a.For)
	}
	return a.Text
}

// checkActions checks the actions against the run's length: an offset at
// or past the end of a timed run would never run.
func checkActions(actions []ActionSpec, duration time.Duration) error {
	for _, a := range actions {
		if duration > 0 && a.Offset >= duration {
			return usage.Errorf("--action %q: offset %s is past the end of the run (--time %s)", a.Text, a.Offset, duration)
		}
	}
	return nil
}
