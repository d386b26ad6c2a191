package replay

import (
	"context"
	"database/sql"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/usage"
)

// OpenOptions set how the workers' connections talk to an endpoint.
type OpenOptions struct {
	Prepared bool // server-side prepared statements; otherwise values are interpolated client-side
	PollerIO bool // keep Go's network poller instead of blocking socket reads
	MaxIdle  int  // connections kept open in the pool
}

// Open opens and checks an endpoint as the engine's workers use it:
// interpolation per Prepared, raw column bytes (no time parsing), and
// blocking socket reads unless PollerIO (see UseBlockingIO). It reports
// whether blocking reads are in use, so the caller can size GOMAXPROCS.
func Open(ctx context.Context, ep server.Endpoint, o OpenOptions) (db *sql.DB, blocking bool, err error) {
	cfg, err := ep.Config()
	if err != nil {
		return nil, false, usage.Wrap(err)
	}
	cfg.InterpolateParams = !o.Prepared
	cfg.ParseTime = false
	if !o.PollerIO {
		blocking = UseBlockingIO(cfg)
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, false, usage.Errorf("endpoint %s: %v", ep.Name, err)
	}
	db = sql.OpenDB(conn)
	db.SetMaxIdleConns(o.MaxIdle)
	if err := ep.Ping(ctx, db); err != nil {
		db.Close()
		return nil, false, err
	}
	return db, blocking, nil
}
