package colsample

import (
	"container/heap"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// MaxScan bounds the distinct values one Read looks at: past it the
// sample is of the first MaxScan in the server's scan order.
const MaxScan = 5_000_000

// Sample is the values chosen: Text as results record them, Bind as they
// are bound (int64 for an integer column, string else).
type Sample struct {
	Text []string
	Bind []any
}

// Read returns up to size distinct non-NULL values of table.column. The
// choice depends only on the seed and on the set of values the column
// holds, not on the order the server returns them in: each value is
// ranked by a hash of the seed and its text and the size lowest kept, so
// that two servers loaded with the same data give the same sample (and a
// run replayed with the same seed draws the same values).
//
// Cost: one SELECT DISTINCT of the column, streamed (memory holds only
// the sample): a walk of an index the column leads, or else a full scan
// with a temporary table of the distinct values on the server; at most
// MaxScan values are read.
func Read(ctx context.Context, db *sql.DB, table, column string, size int, seed uint64) (Sample, error) {
	q := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL LIMIT %d",
		sqllex.QuoteIdent(column), quoteTable(table), sqllex.QuoteIdent(column), MaxScan)
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return Sample{}, fmt.Errorf("sample(%s.%s): %w", table, column, err)
	}
	defer rows.Close()
	integer := false
	if ts, err := rows.ColumnTypes(); err == nil && len(ts) == 1 {
		integer = isIntegerType(ts[0].DatabaseTypeName())
	}
	h := &keep{}
	var raw sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&raw); err != nil {
			return Sample{}, fmt.Errorf("sample(%s.%s): %w", table, column, err)
		}
		k := rank(seed, raw)
		if h.Len() < size {
			heap.Push(h, ranked{key: k, text: string(raw)})
		} else if k < (*h)[0].key {
			(*h)[0] = ranked{key: k, text: string(raw)}
			heap.Fix(h, 0)
		}
	}
	if err := rows.Err(); err != nil {
		return Sample{}, fmt.Errorf("sample(%s.%s): %w", table, column, err)
	}
	chosen := slices.Clone(*h)
	slices.SortFunc(chosen, func(a, b ranked) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return strings.Compare(a.text, b.text)
	})
	s := Sample{Text: make([]string, len(chosen)), Bind: make([]any, len(chosen))}
	for i, c := range chosen {
		s.Text[i] = c.text
		s.Bind[i] = c.text
		if integer {
			if n, err := strconv.ParseInt(c.text, 10, 64); err == nil {
				s.Bind[i] = n
			}
		}
	}
	return s, nil
}

// rank is the value's place in the seed's order: FNV-1a of the seed and
// the value's bytes, mixed.
func rank(seed uint64, v []byte) uint64 {
	f := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	f.Write(b[:])
	f.Write(v)
	x := f.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

func isIntegerType(name string) bool {
	switch strings.ToUpper(strings.TrimPrefix(strings.ToUpper(name), "UNSIGNED ")) {
	case "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER", "BIGINT", "YEAR":
		return true
	}
	return false
}

// quoteTable quotes a table name, or db.table.
func quoteTable(name string) string {
	if db, t, ok := strings.Cut(name, "."); ok {
		return sqllex.QuoteIdent(db) + "." + sqllex.QuoteIdent(t)
	}
	return sqllex.QuoteIdent(name)
}

type ranked struct {
	key  uint64
	text string
}

// keep is a max-heap of the lowest ranks seen.
type keep []ranked

func (h keep) Len() int { return len(h) }
func (h keep) Less(i, j int) bool {
	if h[i].key != h[j].key {
		return h[i].key > h[j].key
	}
	return h[i].text > h[j].text
}
func (h keep) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *keep) Push(x any)   { *h = append(*h, x.(ranked)) }
func (h *keep) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
