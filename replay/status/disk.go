package status

import (
	"context"
	"database/sql"
	"time"

	"github.com/joinbench/joinbench/results"
)

// DiskVariable is the status row of a server's InnoDB tablespaces' size
// on disk (results.DiskVariable): what a table copy (pt-online-schema-change,
// an ALTER that rebuilds) adds while it runs, read from the server so that
// it needs no access to the server's files.
const DiskVariable = results.DiskVariable

// tablespaceQueries sum the space the tablespaces' files take on disk:
// MariaDB's table, then MySQL 8's name for it.
var tablespaceQueries = []string{
	"SELECT COALESCE(SUM(ALLOCATED_SIZE), 0) FROM information_schema.INNODB_SYS_TABLESPACES",
	"SELECT COALESCE(SUM(ALLOCATED_SIZE), 0) FROM information_schema.INNODB_TABLESPACES",
}

// SampleDisk has the sampler also report DiskVariable at each sample. A
// server that has neither table reports none.
func (s *Sampler) SampleDisk() { s.diskQuery = tablespaceQueries[0] }

// sampleDisk reads the tablespaces' size: one gauge row, none when the
// server cannot tell (the query is then dropped for the rest of the run).
func (s *Sampler) sampleDisk(ctx context.Context, now time.Time, interval float64) []results.Status {
	if s.diskQuery == "" {
		return nil
	}
	var bytes sql.NullInt64
	err := s.db.QueryRowContext(ctx, s.diskQuery).Scan(&bytes)
	if err != nil && ctx.Err() == nil {
		if s.diskQuery == tablespaceQueries[0] {
			s.diskQuery = tablespaceQueries[1]
			return s.sampleDisk(ctx, now, interval)
		}
		s.diskQuery = ""
		return nil
	}
	if err != nil || !bytes.Valid {
		return nil
	}
	return []results.Status{{RunID: s.runID, Endpoint: s.endpoint, Time: now, Interval: interval,
		Variable: DiskVariable, Delta: bytes.Int64, Gauge: true}}
}
