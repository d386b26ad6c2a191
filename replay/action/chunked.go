package action

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// chunkedKind runs a DELETE or UPDATE in chunks, each its own transaction.
var chunkedKind = &Kind{
	Name:   "chunked",
	Syntax: "chunked SIZE [pk|limit]: DELETE or UPDATE",
	Doc:    "the same single-table statement in chunks, each its own transaction (autocommit): `pk` (default) by ranges of SIZE values of the table's one-column integer primary key, between the smallest and largest key the statement's condition selects; `limit` appends `LIMIT SIZE` and repeats until a chunk changes fewer rows. A statement with its own `LIMIT` or `ORDER BY`, or on several tables, is refused",
	Parse:  parseChunked,
}

// Chunk modes of a chunked DML.
const (
	chunkByKey   = "pk"    // primary-key ranges of SIZE values
	chunkByLimit = "limit" // LIMIT SIZE, repeated until fewer rows are affected
)

type chunkedJob struct {
	stmt string
	dml  chunkable
	size int64
	by   string
}

func parseChunked(a Args) (Job, error) {
	if len(a.Words) < 1 || len(a.Words) > 2 {
		return nil, errors.New("chunked takes the chunk size and optionally pk or limit, e.g. 'chunked 5000: DELETE ...'")
	}
	n, err := strconv.ParseInt(a.Words[0], 10, 64)
	if err != nil || n < 1 {
		return nil, fmt.Errorf("chunk size %q is not a positive number of rows", a.Words[0])
	}
	j := chunkedJob{size: n, by: chunkByKey}
	if len(a.Words) == 2 {
		j.by = strings.ToLower(a.Words[1])
		if j.by != chunkByKey && j.by != chunkByLimit {
			return nil, fmt.Errorf("chunks are by pk or by limit, not %q", a.Words[1])
		}
	}
	if j.stmt, err = a.NeedText("the DELETE or UPDATE"); err != nil {
		return nil, err
	}
	if j.dml, err = splitDML(j.stmt); err != nil {
		return nil, err
	}
	return j, nil
}

func (j chunkedJob) What(Target) string {
	return fmt.Sprintf("%s (chunks of %d by %s)", j.stmt, j.size, j.by)
}

// Do runs the statement in chunks, each its own transaction (autocommit):
// by ranges of size primary key values from the smallest to the largest
// key the statement's condition selects, or with LIMIT size until a chunk
// affects fewer rows.
func (j chunkedJob) Do(ctx context.Context, at Site, out *Outcome) error {
	return withConn(ctx, at.DB, func(c *conn) error {
		if j.by == chunkByLimit {
			return j.byLimit(c, out)
		}
		return j.byKey(c, out)
	})
}

func (j chunkedJob) byLimit(c *conn, out *Outcome) error {
	q := j.dml.Head
	if j.dml.Cond != "" {
		q += " WHERE " + j.dml.Cond
	}
	q += fmt.Sprintf(" LIMIT %d", j.size)
	for {
		n, err := c.exec(q)
		out.Rows += n
		out.Chunks++
		if err != nil {
			return err
		}
		if n < j.size {
			return nil
		}
	}
}

func (j chunkedJob) byKey(c *conn, out *Outcome) error {
	d := j.dml
	key, err := c.integerKey(d)
	if err != nil {
		return err
	}
	table := sqllex.QuoteIdent(d.Table)
	if d.Schema != "" {
		table = sqllex.QuoteIdent(d.Schema) + "." + table
	}
	var lo, hi sql.NullInt64
	// The range of the rows the statement changes: when its condition is
	// on the key, no chunk is spent on keys it leaves alone.
	bounds := fmt.Sprintf("SELECT MIN(%s), MAX(%s) FROM %s", key, key, table)
	if d.Cond != "" {
		bounds += " WHERE " + d.Cond
	}
	if err := c.conn.QueryRowContext(c.ctx, bounds).Scan(&lo, &hi); err != nil {
		return fmt.Errorf("key range of %s: %w", d.Table, err)
	}
	if !lo.Valid {
		return nil // no row to change
	}
	for from := lo.Int64; from <= hi.Int64; from += j.size {
		q := d.withCond(fmt.Sprintf("%s >= %d AND %s < %d", key, from, key, from+j.size))
		n, err := c.exec(q)
		out.Rows += n
		out.Chunks++
		if err != nil {
			return err
		}
	}
	return nil
}

// integerKey returns the quoted primary key column of the statement's
// table: chunks by key need a primary key of one integer column.
func (c *conn) integerKey(d chunkable) (string, error) {
	schema := d.Schema
	if schema == "" {
		if err := c.conn.QueryRowContext(c.ctx, "SELECT DATABASE()").Scan(&schema); err != nil {
			return "", err
		}
	}
	rows, err := c.conn.QueryContext(c.ctx, `SELECT k.COLUMN_NAME, c.DATA_TYPE
FROM information_schema.KEY_COLUMN_USAGE k
JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = k.TABLE_SCHEMA AND c.TABLE_NAME = k.TABLE_NAME AND c.COLUMN_NAME = k.COLUMN_NAME
WHERE k.TABLE_SCHEMA = ? AND k.TABLE_NAME = ? AND k.CONSTRAINT_NAME = 'PRIMARY'`, schema, d.Table)
	if err != nil {
		return "", fmt.Errorf("primary key of %s: %w", d.Table, err)
	}
	defer rows.Close()
	var cols, types []string
	for rows.Next() {
		var col, typ string
		if err := rows.Scan(&col, &typ); err != nil {
			return "", err
		}
		cols, types = append(cols, col), append(types, strings.ToLower(typ))
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(cols) != 1 || !strings.HasSuffix(types[0], "int") {
		return "", fmt.Errorf("chunks by pk need a primary key of one integer column on %s (it has %s): use 'chunked N limit'", d.Table, describeKey(cols))
	}
	return sqllex.QuoteIdent(cols[0]), nil
}

func describeKey(cols []string) string {
	if len(cols) == 0 {
		return "none"
	}
	return strings.Join(cols, ", ")
}
