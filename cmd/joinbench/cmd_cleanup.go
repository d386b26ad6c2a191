package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
)

type cleanupCmd struct {
	connFlags `embed:""`
	schemaFlags
}

func (c *cleanupCmd) Help() string {
	return `Drops the tables prepare creates and nothing else: every <PREFIX><N>
(N = 1, 2, ... without leading zeros, whatever --tables was when they were
prepared; PREFIX is --table-name) and level1..level5, and the small
tables through which split prepares and runs (--segment) coordinate
(joinbench_prepare_segments, joinbench_run_segments). Other tables of the
database are left alone, and so is the database.`
}

func (c *cleanupCmd) Run(ctx context.Context, cl *cli) error {
	logw := logWriter(cl)
	tgt, db, err := openTarget(ctx, &c.connFlags, logw, 1)
	if err != nil {
		return err
	}
	defer tgt.Close()
	defer db.Close()
	dropped, err := load.Cleanup(ctx, db, ddl.SchemaOptions{Tables: c.Tables, TableName: c.TableName})
	if len(dropped) > 0 {
		fmt.Fprintf(logw, "dropped %d tables from %s: %s\n", len(dropped), tgt.Database, strings.Join(dropped, ", "))
	} else if err == nil {
		fmt.Fprintf(logw, "no prepared tables in %s\n", tgt.Database)
	}
	return err
}
