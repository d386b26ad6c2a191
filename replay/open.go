package replay

import (
	"context"
	"database/sql"
	"io"
	"log"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// openOptions set how the workers' connections talk to an endpoint.
type openOptions struct {
	Prepared bool // server-side prepared statements; otherwise values are interpolated client-side
	PollerIO bool // keep Go's network poller instead of blocking socket reads
	MaxIdle  int  // connections kept open in the pool
}

// adminConns bounds the connections of an endpoint's Admin pool: KILL
// QUERY for many stuck threads at once waits for one of these rather than
// opening a connection each (the server may have none to spare).
const adminConns = 16

// openEndpoint opens and checks an endpoint as the engine's workers use it:
// interpolation per Prepared, raw column bytes (no time parsing), and
// blocking socket reads unless PollerIO (see UseBlockingIO). The endpoint
// is Direct when its sockets are blocking; when they could not be,
// Fallback says why. Its Admin pool, for everything but the workers, dials
// sockets on Go's poller, where contexts and deadlines bound every wait.
func openEndpoint(ctx context.Context, ep server.Endpoint, o openOptions) (Endpoint, error) {
	cfg, err := ep.Config()
	if err != nil {
		return Endpoint{}, usage.Wrap(err)
	}
	cfg.InterpolateParams = !o.Prepared
	cfg.ParseTime = false
	// The engine reports lost connections itself, once per endpoint; the
	// driver's own log lines would repeat them per thread.
	cfg.Logger = log.New(io.Discard, "", 0)
	admin, err := mysql.NewConnector(cfg.Clone())
	if err != nil {
		return Endpoint{}, usage.Errorf("endpoint %s: %v", ep.Name, err)
	}
	e := Endpoint{Name: ep.Name}
	if !o.PollerIO {
		e.Fallback = UseBlockingIO(cfg)
		e.Direct = e.Fallback == ""
	}
	captureSockets(cfg)
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return Endpoint{}, usage.Errorf("endpoint %s: %v", ep.Name, err)
	}
	e.Admin = sql.OpenDB(admin)
	e.Admin.SetMaxOpenConns(adminConns)
	if err := ep.Ping(ctx, e.Admin); err != nil {
		e.Admin.Close()
		return Endpoint{}, err
	}
	e.DB = sql.OpenDB(conn)
	e.DB.SetMaxIdleConns(o.MaxIdle)
	return e, nil
}
