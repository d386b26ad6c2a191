package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// ReadDigestTable reads performance_schema's
// events_statements_summary_by_digest on a live server into the set,
// with whichever of DigestColumns the server has (MariaDB has neither
// QUANTILE_95 nor QUERY_SAMPLE_TEXT). name is the server's, for the
// groups' FirstSeen.
func (s *Set) ReadDigestTable(ctx context.Context, db *sql.DB, name string) error {
	rows, err := db.QueryContext(ctx, "SELECT * FROM performance_schema.events_statements_summary_by_digest WHERE DIGEST_TEXT IS NOT NULL")
	if err != nil {
		return fmt.Errorf("%s: read the digest table (is performance_schema on?): %w", name, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	at := map[string]int{}
	for i, c := range cols {
		at[strings.ToUpper(c)] = i
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		n++
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		row, err := DigestFromColumns(func(c string) (string, bool) {
			i, ok := at[c]
			if !ok || !vals[i].Valid {
				return "", false
			}
			return vals[i].String, true
		})
		if err != nil {
			return fmt.Errorf("%s: digest row %d: %w", name, n, err)
		}
		row.Source = fmt.Sprintf("%s digest table, row %d", name, n)
		s.AddDigest(row)
	}
	return rows.Err()
}
