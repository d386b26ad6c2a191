package action

import (
	"context"
)

// sqlKind runs a statement on a connection of its own, as the session's
// wsrep_OSU_method says: TOI on Galera by default.
var sqlKind = &Kind{
	Name:   "sql",
	Syntax: "sql: STATEMENT",
	Doc:    "runs the statement on a connection of its own, as the session's `wsrep_OSU_method` says: on Galera, TOI (total order isolation), the default, which every node executes at the same point of the cluster's order",
	Note:   "TOI on Galera",
	Parse: func(a Args) (Job, error) {
		q, err := statementArg(a)
		if err != nil {
			return nil, err
		}
		return sqlJob{stmt: q}, nil
	},
}

// statementArg reads the arguments of a kind that takes a statement and
// nothing else.
func statementArg(a Args) (string, error) {
	if err := a.NoWords("the statement"); err != nil {
		return "", err
	}
	return a.NeedText("the statement")
}

type sqlJob struct{ stmt string }

func (j sqlJob) What(Target) string { return j.stmt }

func (j sqlJob) Do(ctx context.Context, at Site, out *Outcome) error {
	return withConn(ctx, at.DB, func(c *conn) error {
		n, err := c.exec(j.stmt)
		out.Rows = n
		return err
	})
}
