package replay

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"time"

	"github.com/joinbench/joinbench/replay/internal/wire"
)

// Statements on the workers' hot path go to the driver directly.
//
// Through database/sql a statement costs about a dozen allocations and
// several locks: the Stmt's per-connection dependency maps, a Rows with its
// own mutex, fresh argument slices, Scan through convertAssign. A worker owns
// its connection for its whole life and reads every result to the end
// before the next statement, so none of that bookkeeping is needed. The
// worker runs each statement inside (*sql.Conn).Raw, which lends it the
// driver connection under the pool's own lock (a bad connection it reports
// is still discarded by the pool), and reuses its argument and row buffers
// from one statement to the next. Arguments are converted the way
// database/sql converts them (the driver's NamedValueChecker, then the
// default converter), and checksummed columns are formatted the way Scan
// into sql.RawBytes formats them, so results are the same as through
// database/sql.

// driverCall is the statement the worker's Raw callback executes, and its
// outcome. It lives in the worker so that the callback, a method value made
// once, needs no closure per statement.
type driverCall struct {
	p    *prepared
	sql  string
	args []any
	n    int64
	sum  string
	err  error
}

// exec runs one statement on the worker's connection and reads its whole
// result.
func (w *worker) exec(p *prepared, q string, args []any) (n int64, sum string, err error) {
	if p.wire != nil && w.wireArgs(args) {
		var h Checksummer
		if p.query && w.e.cfg.Checksum != nil {
			h = w.e.cfg.Checksum()
		}
		var sink wire.RowSink
		if h != nil {
			sink = h
		}
		n, err = w.wire.Exec(p.wire, w.wargs, sink)
		w.warnings = w.wire.Warnings()
		if err == nil && h != nil {
			sum = h.Sum()
		}
		return n, sum, err
	}
	w.call = driverCall{p: p, sql: q, args: args}
	if rerr := w.conn.Raw(w.rawExec); rerr != nil && w.call.err == nil {
		w.call.err = rerr // the connection was already closed
	}
	c := &w.call
	n, sum, err = c.n, c.sum, c.err
	*c = driverCall{}
	return n, sum, err
}

// wireArgs converts args into w.wargs for package wire, as database/sql's
// default converter would; false when one has a type wire cannot send, and
// the driver must run the statement (recorded, and logged once).
func (w *worker) wireArgs(args []any) bool {
	w.wargs = w.wargs[:0]
	for _, a := range args {
		if !wire.Supported(a) {
			v, err := driver.DefaultParameterConverter.ConvertValue(a)
			if err != nil || !wire.Supported(v) {
				w.noteDriverStatement(a)
				return false
			}
			a = v
		}
		w.wargs = append(w.wargs, a)
	}
	return true
}

// rawExecDriver is the Raw callback of exec (as w.rawExec). Returning the
// statement's error lets database/sql drop the connection when the driver
// says it is bad.
func (w *worker) rawExecDriver(dc any) error {
	c := &w.call
	c.n, c.sum, c.err = w.execDriver(dc, c.p, c.sql, c.args)
	return c.err
}

func (w *worker) execDriver(dc any, p *prepared, q string, args []any) (int64, string, error) {
	ctx := w.qctx
	si := p.stmt
	if si == nil {
		// Text protocol: the driver may decline (driver.ErrSkip, e.g. values
		// without interpolateParams); then prepare, run and close, as
		// database/sql does.
		nv, err := w.bind(dc, nil, args)
		if err != nil {
			return 0, "", err
		}
		n, sum, err := w.execText(ctx, dc, p, q, nv)
		if !errors.Is(err, driver.ErrSkip) {
			return n, sum, err
		}
		if si, err = prepareDriver(ctx, dc, q); err != nil {
			return 0, "", err
		}
		defer si.Close()
	}
	nv, err := w.bind(dc, si, args)
	if err != nil {
		return 0, "", err
	}
	if p.query {
		rows, err := stmtQuery(ctx, si, nv)
		if err != nil {
			return 0, "", err
		}
		return w.read(rows)
	}
	res, err := stmtExec(ctx, si, nv)
	if err != nil {
		return 0, "", err
	}
	n, _ := res.RowsAffected()
	return n, "", nil
}

// execText sends a statement as text; driver.ErrSkip means the driver
// wants it prepared instead.
func (w *worker) execText(ctx context.Context, dc any, p *prepared, q string, nv []driver.NamedValue) (int64, string, error) {
	if p.query {
		qc, ok := dc.(driver.QueryerContext)
		if !ok {
			return 0, "", driver.ErrSkip
		}
		rows, err := qc.QueryContext(ctx, q, nv)
		if err != nil {
			return 0, "", err
		}
		return w.read(rows)
	}
	ec, ok := dc.(driver.ExecerContext)
	if !ok {
		return 0, "", driver.ErrSkip
	}
	res, err := ec.ExecContext(ctx, q, nv)
	if err != nil {
		return 0, "", err
	}
	n, _ := res.RowsAffected()
	return n, "", nil
}

// bind converts a statement's arguments into the worker's reused
// NamedValue slice, as database/sql does: the statement's NamedValueChecker,
// else the connection's, else (or when they pass with driver.ErrSkip) the
// default converter. Column converters, deprecated, are not consulted.
func (w *worker) bind(dc any, si driver.Stmt, args []any) ([]driver.NamedValue, error) {
	var nvc driver.NamedValueChecker
	if si != nil {
		nvc, _ = si.(driver.NamedValueChecker)
	}
	if nvc == nil {
		nvc, _ = dc.(driver.NamedValueChecker)
	}
	nv := w.nv[:0]
	for _, a := range args {
		nv = append(nv, driver.NamedValue{Ordinal: len(nv) + 1, Value: a})
		v := &nv[len(nv)-1]
		err := driver.ErrSkip
		if nvc != nil {
			err = nvc.CheckNamedValue(v)
		}
		if errors.Is(err, driver.ErrSkip) {
			v.Value, err = driver.DefaultParameterConverter.ConvertValue(v.Value)
		}
		switch {
		case errors.Is(err, driver.ErrRemoveArgument):
			nv = nv[:len(nv)-1]
		case err != nil:
			w.nv = nv[:0]
			return nil, fmt.Errorf("converting argument $%d type: %w", v.Ordinal, err)
		}
	}
	w.nv = nv
	if si != nil {
		if want := si.NumInput(); want >= 0 && want != len(nv) {
			return nil, fmt.Errorf("expected %d arguments, got %d", want, len(nv))
		}
	}
	return nv, nil
}

// read reads a result to the end, every result set of it (a procedure
// call returns several), counting rows and, when checksums are on, hashing
// them; it always closes rows.
func (w *worker) read(rows driver.Rows) (n int64, sum string, err error) {
	var h Checksummer
	if w.e.cfg.Checksum != nil {
		h = w.e.cfg.Checksum()
	}
	for {
		var k int64
		k, err = w.readSet(rows, h)
		n += k
		if err != nil {
			break
		}
		more, ok := rows.(driver.RowsNextResultSet)
		if !ok || !more.HasNextResultSet() {
			break
		}
		if err = more.NextResultSet(); err != nil {
			if err == io.EOF {
				err = nil
			}
			break
		}
	}
	clear(w.dest) // do not keep the driver's buffers reachable
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err == nil && h != nil {
		sum = h.Sum()
	}
	return n, sum, err
}

// readSet reads the rows of the current result set into h (nil: counted
// only).
func (w *worker) readSet(rows driver.Rows, h Checksummer) (n int64, err error) {
	cols := len(rows.Columns())
	if cap(w.dest) < cols {
		w.dest = make([]driver.Value, cols)
	}
	dest := w.dest[:cols]
	if h != nil {
		for len(w.raw) < cols {
			w.raw = append(w.raw, nil)
			w.rawBuf = append(w.rawBuf, nil)
		}
	}
	for {
		if err = rows.Next(dest); err != nil {
			break
		}
		if h != nil {
			for i, v := range dest {
				if w.raw[i], w.rawBuf[i], err = rawBytes(v, w.rawBuf[i]); err != nil {
					return n, err
				}
			}
			h.AddRow(w.raw[:cols])
		}
		n++
	}
	if err == io.EOF {
		err = nil
	}
	return n, err
}

// rawBytes formats a column value as Scan into sql.RawBytes does. buf is
// the column's own buffer, returned grown; driver bytes are used as they
// are, valid until the next row.
func rawBytes(v driver.Value, buf []byte) (sql.RawBytes, []byte, error) {
	switch s := v.(type) {
	case nil:
		return nil, buf, nil
	case []byte:
		return s, buf, nil
	case string:
		buf = append(buf[:0], s...)
	case time.Time:
		buf = s.AppendFormat(buf[:0], time.RFC3339Nano)
	case int64:
		buf = strconv.AppendInt(buf[:0], s, 10)
	case float64:
		buf = strconv.AppendFloat(buf[:0], s, 'g', -1, 64)
	case bool:
		buf = strconv.AppendBool(buf[:0], s)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			buf = strconv.AppendInt(buf[:0], rv.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			buf = strconv.AppendUint(buf[:0], rv.Uint(), 10)
		case reflect.Float32:
			buf = strconv.AppendFloat(buf[:0], rv.Float(), 'g', -1, 32)
		case reflect.Float64:
			buf = strconv.AppendFloat(buf[:0], rv.Float(), 'g', -1, 64)
		case reflect.Bool:
			buf = strconv.AppendBool(buf[:0], rv.Bool())
		case reflect.String:
			buf = append(buf[:0], rv.String()...)
		default:
			return nil, buf, fmt.Errorf("unsupported column value type %T", v)
		}
	}
	return buf, buf, nil
}

// prepareDriver prepares a statement on a driver connection.
func prepareDriver(ctx context.Context, dc any, q string) (driver.Stmt, error) {
	if pc, ok := dc.(driver.ConnPrepareContext); ok {
		return pc.PrepareContext(ctx, q)
	}
	c, ok := dc.(driver.Conn)
	if !ok {
		return nil, fmt.Errorf("replay: %T is not a driver connection", dc)
	}
	return c.Prepare(q)
}

func stmtQuery(ctx context.Context, si driver.Stmt, nv []driver.NamedValue) (driver.Rows, error) {
	if sq, ok := si.(driver.StmtQueryContext); ok {
		return sq.QueryContext(ctx, nv)
	}
	vals, err := plainValues(nv)
	if err != nil {
		return nil, err
	}
	return si.Query(vals) //nolint:staticcheck // drivers without the context interface
}

func stmtExec(ctx context.Context, si driver.Stmt, nv []driver.NamedValue) (driver.Result, error) {
	if se, ok := si.(driver.StmtExecContext); ok {
		return se.ExecContext(ctx, nv)
	}
	vals, err := plainValues(nv)
	if err != nil {
		return nil, err
	}
	return si.Exec(vals) //nolint:staticcheck // drivers without the context interface
}

func plainValues(nv []driver.NamedValue) ([]driver.Value, error) {
	vals := make([]driver.Value, len(nv))
	for i, v := range nv {
		if v.Name != "" {
			return nil, errors.New("replay: the driver does not support named arguments")
		}
		vals[i] = v.Value
	}
	return vals, nil
}
