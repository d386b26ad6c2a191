package load

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// The contents of a dataset's tables, as a run finds them: a digest that a
// changed table cannot keep. Three rows looked up by id (Dataset.Sample)
// miss a row inserted anywhere else; the digest counts every row and sums
// a CRC32 of each, computed by the server in one scan per table.
//
// A row's text is its columns, each QUOTE()d (so NULL and 'NULL' differ),
// in column order, in time zone +00:00, except FLOAT and DOUBLE columns,
// whose text may differ between server versions that hold the same bits;
// a change of those columns alone is not seen. The sum does not depend on
// the order rows are read in; a changed row changes it unless its CRC32
// collides (about 1 in 4 billion).
//
// A table of more than ExactContentsRows (by prepare's count) is digested
// over ContentsRanges ranges of ContentsRangeRows primary-key values
// spread evenly over 1..table size, plus every id outside 1..table size
// (where rows appended by AUTO_INCREMENT land): a changed row or an
// insertion inside the ranges, or anywhere outside 1..table size, is seen;
// elsewhere in a large table it is not. The cost, measured with MariaDB
// 10.11 on a 2-core machine, is in docs/work.md ("Data identity").

// ExactContentsRows is the largest table digested whole: about 2 s for a
// main table on a loaded 2-core machine (measured: 10 s per million main
// rows, 3-4 s per million level rows).
const ExactContentsRows = 200_000

// ContentsRanges and ContentsRangeRows bound the digest of a larger table:
// 64 ranges of 1,000 ids (64,000 rows).
const (
	ContentsRanges    = 64
	ContentsRangeRows = 1000
)

// TableContents is the digest of one table.
type TableContents struct {
	Rows     int64  // rows digested
	Checksum string // sum of the rows' CRC32, in decimal
	Ranges   int    // 0: the whole table; else the ranges of ids digested
	Excluded string // columns left out, comma-separated
	// Indexes digests the table's index definitions (name, uniqueness,
	// columns in order): DDL changes it, rows do not.
	Indexes string
}

// Contents digests the tables of the dataset d, by name.
func Contents(ctx context.Context, db *sql.DB, d *Dataset) (map[string]TableContents, error) {
	schema, err := ddl.SchemaOptions{Tables: d.Tables, TableName: d.TableName}.Normalize()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", DatasetTable, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// TIMESTAMP columns read as text in the session's time zone.
	if _, err := conn.ExecContext(ctx, "SET time_zone = '+00:00'"); err != nil {
		return nil, err
	}
	out := map[string]TableContents{}
	for _, t := range schema.TableNames() {
		sampled := !d.NoPrimaryKey && d.Rows[t] > ExactContentsRows && d.TableSize > ContentsRanges*ContentsRangeRows
		c, err := tableContents(ctx, conn, t, sampled, d.TableSize)
		if err != nil {
			return nil, fmt.Errorf("digest the rows of %s: %w", t, err)
		}
		out[t] = c
	}
	return out, nil
}

// tableContents digests one table: whole, or over the ranges of ids of
// contentsRanges when sampled.
func tableContents(ctx context.Context, conn *sql.Conn, table string, sampled bool, size int64) (TableContents, error) {
	rows, err := conn.QueryContext(ctx, "SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS "+
		"WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION", table)
	if err != nil {
		return TableContents{}, err
	}
	var cols, excluded []string
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			rows.Close()
			return TableContents{}, err
		}
		switch strings.ToLower(typ) {
		case "float", "double", "real":
			excluded = append(excluded, name)
		default:
			cols = append(cols, "QUOTE("+sqllex.QuoteIdent(name)+")")
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return TableContents{}, err
	}
	if len(cols) == 0 {
		return TableContents{}, fmt.Errorf("no column to digest")
	}
	q := "SELECT COUNT(*), CAST(COALESCE(SUM(CRC32(CONCAT_WS(',', " + strings.Join(cols, ", ") + "))), 0) AS CHAR) FROM " +
		sqllex.QuoteIdent(table)
	c := TableContents{Excluded: strings.Join(excluded, ",")}
	if sampled {
		var where []string
		for _, r := range contentsRanges(size) {
			where = append(where, fmt.Sprintf("id BETWEEN %d AND %d", r[0], r[1]))
		}
		q += fmt.Sprintf(" WHERE %s OR id < 1 OR id > %d", strings.Join(where, " OR "), size)
		c.Ranges = ContentsRanges
	}
	if err := conn.QueryRowContext(ctx, q).Scan(&c.Rows, &c.Checksum); err != nil {
		return TableContents{}, err
	}
	if err := conn.QueryRowContext(ctx, "SELECT COALESCE(SHA2(GROUP_CONCAT(CONCAT_WS(' ', INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, "+
		"COALESCE(SUB_PART, '')) ORDER BY INDEX_NAME, SEQ_IN_INDEX SEPARATOR ';'), 256), '') FROM information_schema.STATISTICS "+
		"WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?", table).Scan(&c.Indexes); err != nil {
		return TableContents{}, err
	}
	return c, nil
}

// contentsRanges are the ranges of ids a large table's digest reads:
// ContentsRanges of ContentsRangeRows, the first starting at 1, spread
// evenly over 1..size.
func contentsRanges(size int64) [][2]int64 {
	step := size / ContentsRanges
	out := make([][2]int64, ContentsRanges)
	for i := range out {
		lo := 1 + int64(i)*step
		out[i] = [2]int64{lo, lo + ContentsRangeRows - 1}
	}
	return out
}
