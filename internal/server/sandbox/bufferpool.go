package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/usage"
)

// ParseSize reads a size as an option file writes it: a number of bytes,
// or one followed by K, M, G or T (powers of 1024).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	if t != "" {
		switch strings.ToUpper(t[len(t)-1:]) {
		case "K":
			mult = 1 << 10
		case "M":
			mult = 1 << 20
		case "G":
			mult = 1 << 30
		case "T":
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, usage.Errorf("size %q: give a number of bytes, or one followed by K, M or G (e.g. 16M)", s)
	}
	return n * mult, nil
}

// FormatSize writes bytes as the largest unit that divides them: 16M.
func FormatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.suffix)
		}
	}
	return strconv.FormatInt(n, 10)
}

// resizeWait bounds the wait for an online resize: the server moves pages
// out of the chunks it frees, which takes a while when it is busy.
const resizeWait = 2 * time.Minute

// SetBufferPool resizes the running server's InnoDB buffer pool online
// (SET GLOBAL innodb_buffer_pool_size) and waits until the resize is done.
// It returns the size the pool had and the size it has now, which the
// server may have rounded. A server that refuses is a user error quoting
// it.
func (s *Server) SetBufferPool(ctx context.Context, size int64) (was, now int64, err error) {
	conn, err := mysql.NewConnector(s.socketConfig())
	if err != nil {
		return 0, 0, err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(ctx, resizeWait)
	defer cancel()
	if err := db.QueryRowContext(ctx, "SELECT @@innodb_buffer_pool_size").Scan(&was); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", s.Name, err)
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("SET GLOBAL innodb_buffer_pool_size = %d", size)); err != nil {
		if ctx.Err() != nil {
			// Interrupted (or out of time), not refused.
			return was, was, fmt.Errorf("%s: SET GLOBAL innodb_buffer_pool_size: %w", s.Name, err)
		}
		return was, was, usage.Errorf("%s: the server refused innodb_buffer_pool_size = %s: %v", s.Name, FormatSize(size), err)
	}
	// Servers that resize in the background say so in this status
	// variable until they are done; others resize within the SET.
	for {
		var name, status string
		err := db.QueryRowContext(ctx, "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'").Scan(&name, &status)
		if err == sql.ErrNoRows || err == nil && (status == "" || strings.HasPrefix(status, "Completed")) {
			break
		}
		if err != nil {
			return was, 0, fmt.Errorf("%s: %w", s.Name, err)
		}
		select {
		case <-ctx.Done():
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return was, 0, fmt.Errorf("%s: interrupted while the buffer pool was resized (%s): %w", s.Name, status, ctx.Err())
			}
			return was, 0, fmt.Errorf("%s: the buffer pool resize did not end within %s: %s", s.Name, resizeWait, status)
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := db.QueryRowContext(ctx, "SELECT @@innodb_buffer_pool_size").Scan(&now); err != nil {
		return was, 0, fmt.Errorf("%s: %w", s.Name, err)
	}
	return was, now, nil
}

// bufferPool reads the server's buffer pool size.
func (s *Server) bufferPool(ctx context.Context) (int64, error) {
	conn, err := mysql.NewConnector(s.socketConfig())
	if err != nil {
		return 0, err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	var b int64
	if err := db.QueryRowContext(ctx, "SELECT @@innodb_buffer_pool_size").Scan(&b); err != nil {
		return 0, fmt.Errorf("%s: %w", s.Name, err)
	}
	return b, nil
}

// SetBufferPool resizes the buffer pool of every server to size, online,
// for the time of one command: restore gives each the size it had. A
// server that refuses is a user error, and those already resized get
// their size back.
func (n *Named) SetBufferPool(ctx context.Context, size string, log io.Writer) (restore func() error, err error) {
	return n.SetBufferPoolFor(ctx, size, "--buffer-pool-size", log)
}

// SetBufferPoolFor is SetBufferPool, its messages naming why the pool is
// resized (the flag that asked for it).
func (n *Named) SetBufferPoolFor(ctx context.Context, size, why string, log io.Writer) (restore func() error, err error) {
	bytes, err := ParseSize(size)
	if err != nil {
		return nil, usage.Errorf("%s: %v", why, err)
	}
	type resized struct {
		s    *Server
		was  int64
		done func() error
	}
	var done []resized
	restore = func() error {
		var errs []error
		for _, r := range done {
			if _, _, err := r.s.SetBufferPool(context.Background(), r.was); err != nil {
				errs = append(errs, err)
				continue
			}
			fmt.Fprintf(log, "%s: innodb_buffer_pool_size back to %s\n", r.s.Name, FormatSize(r.was))
			errs = append(errs, r.done())
		}
		return errors.Join(errs...)
	}
	for _, s := range n.Servers {
		was, err := s.bufferPool(ctx)
		if err != nil {
			return nil, errors.Join(err, restore())
		}
		noted, err := n.Ledger().Add(ledger.Entry{Kind: ChangeBufferPool, Node: s.Name,
			What: fmt.Sprintf("%s: innodb_buffer_pool_size %s for one command, was %s", s.Name, FormatSize(bytes), FormatSize(was)),
			Undo: map[string]string{"bytes": strconv.FormatInt(was, 10)}})
		if err != nil {
			return nil, errors.Join(err, restore())
		}
		before := was
		was, now, err := s.SetBufferPool(ctx, bytes)
		if err != nil && !usage.Is(err) {
			// Interrupted, or out of time, once the SET may have reached
			// the server (only a refusal is sure to have changed
			// nothing): set back like the others; the entry stays in the
			// ledger for the next command when that fails too.
			done = append(done, resized{s, before, noted})
			return nil, errors.Join(err, restore())
		}
		if err != nil {
			return nil, errors.Join(err, noted(), restore())
		}
		done = append(done, resized{s, was, noted})
		msg := fmt.Sprintf("%s: innodb_buffer_pool_size %s -> %s for this command (%s)", s.Name, FormatSize(was), FormatSize(now), why)
		if now != bytes {
			msg += fmt.Sprintf("; the server rounded %s to %s", size, FormatSize(now))
		}
		fmt.Fprintln(log, msg)
	}
	return restore, nil
}
