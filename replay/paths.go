package replay

import (
	"fmt"
	"slices"
	"sync"

	"github.com/joinbench/joinbench/results"
)

// Why a worker connection executes its statements through the driver
// rather than on the socket (package wire), when the run chose it.
const (
	whyDriverPath  = "exec_path driver"
	whyText        = "ps_mode disable: statements are sent as text"
	whyNotBlocking = "the endpoint's sockets are not blocking ones (poller I/O)"
	whyPooled      = "the pool handed back connections dialed before (for EXPLAIN or status), not a socket of the worker's own"
)

// pathTally counts how the worker connections of one endpoint executed
// statements, and why some used the driver. Connections open rarely and
// statements fall back rarely, so a mutex is cheap here.
type pathTally struct {
	mu             sync.Mutex
	direct, driver int64
	stmts          int64    // statements of direct connections sent through the driver
	reasons        []string // distinct, in the order first seen
}

// add counts one more connection (or, with stmt, one statement) and
// returns true when why is new for the endpoint.
func (t *pathTally) add(direct, stmt bool, why string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case stmt:
		t.stmts++
	case direct:
		t.direct++
	default:
		t.driver++
	}
	if why == "" || slices.Contains(t.reasons, why) {
		return false
	}
	t.reasons = append(t.reasons, why)
	return true
}

func (t *pathTally) record(endpoint string) results.EndpointPath {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := results.EndpointPath{Endpoint: endpoint, Reasons: slices.Clone(t.reasons),
		DirectConnections: t.direct, DriverConnections: t.driver, DriverStatements: t.stmts}
	switch {
	case t.direct > 0 && t.driver > 0:
		p.Path = results.PathMixed
	case t.direct > 0:
		p.Path = results.PathDirect
	case t.driver > 0:
		p.Path = results.PathDriver
	default:
		p.Path = results.PathNone
	}
	return p
}

// execPath decides how the worker's new connection executes prepared
// statements: on sock (package wire), or through the driver and why.
// fallback is true when the direct path was wanted but cannot be had;
// dialWhy says why the dial gave no blocking socket.
func (w *worker) execPath(sock *blockingConn, dialWhy string) (direct bool, why string, fallback bool) {
	switch cfg := &w.e.cfg; {
	case cfg.DriverPath:
		return false, whyDriverPath, false
	case !cfg.Prepared:
		return false, whyText, false
	case !w.ep.Direct && w.ep.Fallback != "":
		return false, w.ep.Fallback, true
	case !w.ep.Direct:
		return false, whyNotBlocking, false
	case sock == nil:
		return false, dialWhy, true
	case sock.capsErr != nil:
		return false, sock.capsErr.Error(), true
	}
	return true, "", false
}

// notePath records how a worker's new connection executes statements.
// A fallback (the direct path was wanted but cannot be had) is logged the
// first time its reason shows on the endpoint.
func (w *worker) notePath(direct bool, why string, fallback bool) {
	if w.ep.paths.add(direct, false, why) && fallback {
		w.e.log.Printf("%s: statements go through the driver, not the direct path: %s", w.ep.Name, why)
	}
}

// noteDriverStatement records a statement of a direct connection that
// goes through the driver because of an argument of type a.
func (w *worker) noteDriverStatement(a any) {
	why := fmt.Sprintf("a statement has an argument of type %T, which the direct path does not send", a)
	if w.ep.paths.add(false, true, why) {
		w.e.log.Printf("%s: statements go through the driver, not the direct path: %s", w.ep.Name, why)
	}
}

// paths are the exec paths of every endpoint, in order.
func (e *engine) paths() []results.EndpointPath {
	out := make([]results.EndpointPath, len(e.eps))
	for i, ep := range e.eps {
		out[i] = ep.paths.record(ep.Name)
	}
	return out
}
