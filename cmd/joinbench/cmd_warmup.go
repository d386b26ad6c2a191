package main

import (
	"context"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/ddl/load"
)

type warmupCmd struct {
	connFlags `embed:""`
	schemaFlags
	Threads int `short:"t" default:"2" help:"Tables read at once."`
}

func (c *warmupCmd) Help() string {
	return `Reads every index of the prepared tables (main<N> by --table-name, and
level1..level5) so their pages sit in the buffer pool before a run: a full
scan of the primary key, which in InnoDB holds the rows, then a covering
scan of each secondary index forced with FORCE INDEX. MyISAM and Aria
tables also get LOAD INDEX INTO CACHE.

Prints each table's data and index size and whether everything fits in
innodb_buffer_pool_size; when it does not, part of every run reads from
disk and timings say more about storage than about joins.`
}

func (c *warmupCmd) Run(ctx context.Context, cl *cli) error {
	logw := logWriter(cl)
	tgt, db, err := openTarget(ctx, &c.connFlags, logw, c.Threads+1)
	if err != nil {
		return err
	}
	defer tgt.Close()
	defer db.Close()
	res, err := load.Warmup(ctx, db, ddl.SchemaOptions{Tables: c.Tables, TableName: c.TableName}, c.Threads)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\tengine\tdata MiB\tindex MiB\tindexes\tread in\t")
	for _, t := range res.Tables {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%d\t%s\t\n", t.Name, t.Engine, mib(t.DataBytes), mib(t.IndexBytes), t.Indexes, t.Took.Round(time.Millisecond))
	}
	tw.Flush()
	fit := "everything fits"
	if res.Fits() < 1 {
		fit = fmt.Sprintf("only %.0f%% fits: runs will read from disk", 100*res.Fits())
	}
	fmt.Printf("total %.1f MiB, innodb_buffer_pool_size %.1f MiB: %s (warmed in %s)\n",
		mib(res.TotalBytes()), mib(res.BufferPoolBytes), fit, res.Duration.Round(time.Millisecond))
	return nil
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
