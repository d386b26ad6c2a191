package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/ddl/load"
	"github.com/joinbench/joinbench/internal/usage"
)

// snapshotCmd manages the snapshots prepare --snapshot saves.
type snapshotCmd struct {
	List snapshotListCmd `cmd:"" help:"List the saved snapshots: dataset, server, size."`
	Rm   snapshotRmCmd   `cmd:"" help:"Remove saved snapshots by name (or --all)."`
}

// snapshotDir is where snapshots live; prepare and snapshot share it.
type snapshotDir struct {
	SnapshotDir string `env:"JOINBENCH_SNAPSHOT_DIR" type:"path" group:"Snapshot" placeholder:"DIR" help:"Where snapshots live (default $XDG_CACHE_HOME/joinbench/snapshots or ~/.cache/joinbench/snapshots)."`
}

func (d snapshotDir) store() (*load.SnapshotStore, error) {
	dir := d.SnapshotDir
	if dir == "" {
		var err error
		if dir, err = load.DefaultSnapshotDir(); err != nil {
			return nil, err
		}
	}
	return &load.SnapshotStore{Dir: dir}, nil
}

type snapshotListCmd struct {
	snapshotDir
	Format string `short:"f" enum:"text,json" default:"text" help:"Output format: text (a table) or json (an array: name, dir, bytes, created, database, dataset, server)."`
	JSON   bool   `hidden:"" aliasof:"format=json" help:"Print a JSON array: --format json."`
}

// snapshotJSON is a snapshot as snapshot list --format json prints it.
type snapshotJSON struct {
	Name     string          `json:"name"`
	Dir      string          `json:"dir"`
	Bytes    int64           `json:"bytes"`
	Created  time.Time       `json:"created"`
	Database string          `json:"database"`
	Dataset  load.DatasetKey `json:"dataset"`
	Server   load.ServerKey  `json:"server"`
}

func (c *snapshotListCmd) Run(cl *cli) error {
	st, err := c.store()
	if err != nil {
		return err
	}
	list, err := st.List()
	if err != nil {
		return err
	}
	if c.Format == "json" {
		out := make([]snapshotJSON, 0, len(list))
		for _, s := range list {
			m := s.Manifest
			out = append(out, snapshotJSON{Name: s.Name(), Dir: s.Dir, Bytes: s.Bytes(), Created: m.Created, Database: m.Database,
				Dataset: m.Key.Dataset, Server: m.Key.Server})
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if len(list) == 0 {
		if !cl.Quiet {
			fmt.Fprintf(os.Stderr, "no snapshots in %s\n", st.Dir)
		}
		return nil
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTABLES\tROWS/TABLE\tSEED\tDISTRIBUTION\tSERVER\tSIZE\tCREATED")
	for _, s := range list {
		k := s.Manifest.Key
		fmt.Fprintf(w, "%s\t%d+5\t%d\t%d\t%s\t%s\t%.1f MiB\t%s\n", s.Name(), k.Dataset.Tables, k.Dataset.TableSize,
			k.Dataset.Seed, k.Dataset.Distribution, k.Server.Version, float64(s.Bytes())/(1<<20),
			s.Manifest.Created.Format("2006-01-02 15:04"))
	}
	return w.Flush()
}

type snapshotRmCmd struct {
	snapshotDir
	Names []string `arg:"" optional:"" name:"name" help:"Snapshot names, as snapshot list prints them."`
	All   bool     `help:"Remove every snapshot."`
}

func (c *snapshotRmCmd) Run(cl *cli) error {
	if c.All == (len(c.Names) > 0) {
		return usage.Errorf("name the snapshots to remove, or --all")
	}
	st, err := c.store()
	if err != nil {
		return err
	}
	names := c.Names
	if c.All {
		list, err := st.List()
		if err != nil {
			return err
		}
		for _, s := range list {
			names = append(names, s.Name())
		}
	}
	for _, n := range names {
		if err := st.Remove(n); err != nil {
			return err
		}
		if !cl.Quiet {
			fmt.Fprintf(os.Stderr, "removed snapshot %s\n", n)
		}
	}
	return nil
}
