package replay

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"syscall"

	"github.com/go-sql-driver/mysql"
)

// errKind classifies a statement's failure for the error policy.
type errKind int

const (
	errNone      errKind = iota
	errRetry             // deadlock or lock wait timeout (by default): retried, counted
	errServer            // the server refused the statement: recorded, counts toward disabling
	errTimeout           // killed by --query-timeout: recorded
	errConn              // the connection is gone: recorded, the worker reconnects
	errAborted           // no reply, even after KILL QUERY: the connection was cut (stop.go); recorded, the worker reconnects
	errCancelled         // the run is stopping: not recorded
)

// Server error numbers the engine treats specially.
const (
	erLockDeadlock     = 1213
	erLockWaitTimeout  = 1205
	erQueryInterrupted = 1317 // KILL QUERY
	erStatementTimeout = 1969 // MariaDB max_statement_time
	erMaxExecTime      = 3024 // MySQL max_execution_time
	erServerShutdown   = 1053
	erConnKilled       = 1927 // MariaDB: connection was killed
	erConnKilledMySQL  = 4031 // MySQL 8: disconnected by the server
	crServerGone       = 2006
	crServerLost       = 2013
)

// DefaultRetryErrors are retried and counted, as sysbench does by default.
var DefaultRetryErrors = []uint16{erLockDeadlock, erLockWaitTimeout}

func classify(ctx context.Context, err error, retry []uint16) errKind {
	switch {
	case err == nil:
		return errNone
	case err == errCutAtEnd || err == errCutNoReply: // recorded by statement, apart from errors
		return errCancelled
	case err == errNoReply: // whenever it happens, even as the run stops
		return errAborted
	case err == errStopping || ctx.Err() != nil:
		return errCancelled
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch {
		case slices.Contains(retry, me.Number):
			return errRetry
		case me.Number == erQueryInterrupted || me.Number == erStatementTimeout || me.Number == erMaxExecTime:
			return errTimeout
		case me.Number == erServerShutdown || me.Number == erConnKilled || me.Number == erConnKilledMySQL ||
			me.Number == crServerGone || me.Number == crServerLost:
			return errConn
		}
		return errServer
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errCancelled
	}
	var ne net.Error
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) || errors.As(err, &ne) ||
		errors.Is(err, sql.ErrConnDone) {
		return errConn
	}
	// Anything else from the driver (malformed packet, busy buffer) leaves
	// the connection in an unknown state: reconnect to be safe.
	return errConn
}

// errorFields returns the code, SQL state and message stored on a row.
func errorFields(err error) (code int32, state, msg string) {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return int32(me.Number), string(me.SQLState[:]), me.Message
	}
	return -1, "", err.Error()
}

// describeError formats an error naming the scenario and the SQL state.
func describeError(scenario string, err error) string {
	code, state, msg := errorFields(err)
	if code < 0 {
		return fmt.Sprintf("scenario %s: %s", scenario, msg)
	}
	return fmt.Sprintf("scenario %s: error %d (SQLSTATE %s): %s", scenario, code, state, msg)
}
