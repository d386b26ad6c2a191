// Package checksum fingerprints a statement's result set so that two runs
// (two servers, two versions) can be checked for returning the same rows.
//
// A row's hash is FNV-1a over its columns, each column encoded with a tag
// (NULL or value) and its length, so NULL differs from the empty string
// and ("ab","c") from ("a","bc"). The hash is fixed (no per-process seed):
// the same rows give the same checksum on any host, in any run.
//
// Unordered checksums add up mixed row hashes, so they do not depend on row
// order but do count duplicate rows. The replay engine uses them for every
// statement: rows that tie under an ORDER BY come back in any order, even
// from one server twice (measured on MariaDB 10.11 with the GROUP BY ...
// ORDER BY ... LIMIT scenarios of the reference workload). Ordered checksums
// chain the row hashes, so they change when rows come back in another order.
//
// It must not read from the server itself: callers hand it the rows they
// scanned.
package checksum

import (
	"database/sql"
	"fmt"
)

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// Hash accumulates rows. The zero value is not usable; call New.
type Hash struct {
	ordered bool
	acc     uint64
	rows    int64
}

// New returns a Hash that ignores row order unless ordered is set.
func New(ordered bool) *Hash {
	h := &Hash{ordered: ordered}
	h.Reset()
	return h
}

// Reset forgets every row added.
func (h *Hash) Reset() {
	h.rows = 0
	if h.ordered {
		h.acc = fnvOffset
	} else {
		h.acc = 0
	}
}

// AddRow adds one row. A nil column is SQL NULL.
func (h *Hash) AddRow(cols []sql.RawBytes) {
	r := rowHash(cols)
	h.rows++
	if h.ordered {
		h.acc = mix(h.acc ^ r)
		h.acc = h.acc*fnvPrime + uint64(h.rows)
	} else {
		h.acc += mix(r)
	}
}

// Rows is the number of rows added.
func (h *Hash) Rows() int64 { return h.rows }

// Sum returns the checksum as 16 hex digits, a colon and the row count,
// e.g. 8c3f0d2a9b7e6154:100. Ordered and unordered checksums of the same
// rows differ.
func (h *Hash) Sum() string {
	return fmt.Sprintf("%016x:%d", mix(h.acc), h.rows)
}

func rowHash(cols []sql.RawBytes) uint64 {
	x := uint64(fnvOffset)
	for _, c := range cols {
		if c == nil {
			x = (x ^ 0xfe) * fnvPrime
			continue
		}
		x = (x ^ 0x01) * fnvPrime
		for n := uint64(len(c)); ; n >>= 8 {
			x = (x ^ (n & 0xff)) * fnvPrime
			if n < 0x100 {
				break
			}
		}
		for _, b := range c {
			x = (x ^ uint64(b)) * fnvPrime
		}
	}
	return x
}

// mix is the splitmix64 finalizer: it spreads FNV's weak low bits over the
// whole word before rows are added up.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
