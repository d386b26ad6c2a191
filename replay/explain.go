package replay

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/results"
)

// explainReq asks an endpoint's explainer to capture the plan of one
// statement, as executed by a worker.
type explainReq struct {
	s    *scenState
	stmt int
	sql  string
	args []any
}

// requestExplain hands a copy of the statement to the explainer goroutine
// of the worker's endpoint; if that one is busy the request is dropped (the
// next one will come N executions later).
func (w *worker) requestExplain(s *scenState, si int, st *Statement) {
	req := explainReq{s: s, stmt: si, sql: st.SQL, args: append([]any(nil), st.Args...)}
	select {
	case w.ep.explains <- req:
	default:
	}
}

// explainAtStart captures every scenario's plans on one endpoint before
// the workers start, with values from a renderer no worker uses. It gives
// up on the endpoint at the first failure that is not the statement's
// (lost connection, no reply): plans are then captured during the run.
func (e *engine) explainAtStart(ctx context.Context, ep *endpointState) {
	cctx, cancel := context.WithTimeout(ctx, e.stop.connect)
	conn, err := ep.admin().Conn(cctx)
	cancel()
	if err == nil {
		if err = e.readOnlySession(ctx, conn); err != nil {
			conn.Close()
		}
	}
	if err != nil {
		e.log.Printf("%s: EXPLAIN: %v", ep.Name, err)
		return
	}
	defer conn.Close()
	seen := map[string]bool{}
	for _, s := range e.scens {
		r := s.NewRenderer(e.cfg.Seed, e.cfg.Threads)
		for si, st := range r.Next() {
			if k := e.explain(ctx, conn, ep, seen, explainReq{s: s, stmt: si, sql: st.SQL, args: st.Args}, false); k != errNone && k != errServer {
				return
			}
		}
	}
}

// explainLoop serves an endpoint's explain requests during the run on its
// own connection.
func (e *engine) explainLoop(ctx context.Context, ep *endpointState) {
	seen := map[string]bool{}
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for req := range ep.explains {
		if ctx.Err() != nil {
			continue // drain
		}
		// A connection that died with the server (a restart) fails once:
		// the request is tried again on a fresh one before any error is
		// reported.
		for try := 0; try < 2; try++ {
			if conn == nil {
				cctx, cancel := context.WithTimeout(ctx, e.stop.connect)
				c, err := ep.admin().Conn(cctx)
				cancel()
				if err == nil {
					if err = e.readOnlySession(ctx, c); err != nil {
						c.Close()
					}
				}
				if err != nil {
					if _, loaded := e.seenErr.LoadOrStore("explain-conn/"+ep.Name, true); !loaded {
						e.log.Printf("EXPLAIN on %s: %v", ep.Name, err)
					}
					break
				}
				conn = c
			}
			if k := e.explain(ctx, conn, ep, seen, req, try == 0); k != errConn {
				break
			}
			conn.Close()
			conn = nil
		}
	}
}

// explainTimeout bounds one EXPLAIN (EXPLAIN ANALYZE executes the
// statement).
const explainTimeout = 60 * time.Second

// explain captures one statement's plan, stores each distinct plan once and
// publishes its hash to the workers. It returns what kind of failure
// stopped it, errNone on success: errConn when the connection should be
// replaced (not reported when quietConnErr), errTimeout when the server did
// not answer in time.
func (e *engine) explain(ctx context.Context, conn *sql.Conn, ep *endpointState, seen map[string]bool, req explainReq, quietConnErr bool) errKind {
	s := req.s
	analyze := e.cfg.Explain == ExplainAnalyze && !s.Write
	cctx, cancel := context.WithTimeout(ctx, explainTimeout)
	hash, plans, err := e.cfg.Explainer.Explain(cctx, conn, req.sql, req.args, analyze)
	timedOut := cctx.Err() == context.DeadlineExceeded
	cancel()
	if err != nil {
		kind := classify(ctx, err, nil)
		if timedOut && ctx.Err() == nil {
			kind = errTimeout
		}
		if ctx.Err() == nil && !(kind == errConn && quietConnErr) {
			key := "explain/" + s.Name
			if _, loaded := e.seenErr.LoadOrStore(key, true); !loaded {
				e.log.Printf("EXPLAIN of %s on %s: %v", s.Name, ep.Name, err)
			}
		}
		return kind
	}
	key := s.Name + "\x00" + hash
	if !seen[key] {
		seen[key] = true
		now := time.Now()
		text := Interpolate(req.sql, req.args)
		for _, p := range plans {
			if werr := e.cfg.Sink.WritePlan(results.Plan{
				RunID: e.cfg.RunID, Scenario: s.Name, Endpoint: ep.Name, PlanHash: hash,
				Format: p.Format, Explain: p.Text, Query: text, FirstSeen: now,
			}); werr != nil {
				e.cancel(fmt.Errorf("write plan: %w", werr))
				return errNone
			}
		}
	}
	if req.stmt < maxPlanStmts {
		h := hash
		old := s.plans[ep.idx*maxPlanStmts+req.stmt].Swap(&h)
		if old != nil && *old != hash {
			e.log.Printf("plan change: %s (statement %d) on %s: %s -> %s", s.Name, req.stmt+1, ep.Name, *old, hash)
		}
	}
	return errNone
}

// Interpolate writes args into the `?` placeholders of q as SQL literals,
// for showing a statement with its values. It skips `?` inside quotes and
// comments.
func Interpolate(q string, args []any) string {
	if len(args) == 0 {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(q) && q[j] != c {
				if q[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(q) {
				j = len(q) - 1
			}
			b.WriteString(q[i : j+1])
			i = j
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				b.WriteString(q[i:])
				return b.String()
			}
			b.WriteString(q[i : i+2+end+2])
			i += 2 + end + 1
		case c == '?' && n < len(args):
			b.WriteString(literal(args[n]))
			n++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return quote(x)
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "NULL"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case time.Time:
		return quote(x.Format("2006-01-02 15:04:05.999999"))
	default:
		return quote(fmt.Sprint(x))
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\x00", `\0`, "\n", `\n`, "\r", `\r`, "\x1a", `\Z`)
	return "'" + r.Replace(s) + "'"
}
