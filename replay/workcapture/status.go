package workcapture

import (
	"context"
	"fmt"

	"github.com/joinbench/joinbench/results"
	"github.com/joinbench/joinbench/work"
)

// ReadStatus reads the session counters of the connection q runs on.
func ReadStatus(ctx context.Context, q Querier) (work.Status, error) {
	var s work.Status
	rows, err := q.QueryContext(ctx, work.StatusQuery)
	if err != nil {
		return s, fmt.Errorf("session status: %w", err)
	}
	defer rows.Close()
	var name, value string
	for rows.Next() {
		if err := rows.Scan(&name, &value); err != nil {
			return s, fmt.Errorf("session status: %w", err)
		}
		s.Set(name, value)
	}
	if err := rows.Err(); err != nil {
		return s, fmt.Errorf("session status: %w", err)
	}
	return s, nil
}

// StatusCost is how much reading the counters moves them, as a later
// reading sees it: the change between two readings with nothing between.
// It is the same for every reading on a server (the status statement reads
// the same rows each time), so it is measured once per connection and taken
// off every change (work.StatusWork).
func StatusCost(ctx context.Context, q Querier) (work.Status, error) {
	a, err := ReadStatus(ctx, q)
	if err != nil {
		return work.Status{}, err
	}
	b, err := ReadStatus(ctx, q)
	if err != nil {
		return work.Status{}, err
	}
	return b.Sub(a), nil
}

// Measure runs exec, which must execute the statement on the connection q
// runs on, between two readings of its session counters and returns its
// work (work.StatusWork with cost). The statement runs once, as it is: this is
// how writes are measured.
func Measure(ctx context.Context, q Querier, cost work.Status, exec func() error) (*results.Work, error) {
	before, err := ReadStatus(ctx, q)
	if err != nil {
		return nil, err
	}
	if err := exec(); err != nil {
		return nil, err
	}
	after, err := ReadStatus(ctx, q)
	if err != nil {
		return nil, err
	}
	return work.StatusWork(before, after, cost), nil
}
