package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

type sandboxRestoreCmd struct {
	sandboxName
	Node            string   `required:"" placeholder:"NODE" help:"The node to rebuild (node3)."`
	From            string   `placeholder:"NODE" help:"The node to back up (default: the first other running node)."`
	UseMemory       string   `placeholder:"SIZE" help:"mariabackup --prepare --use-memory: the memory the redo apply may use (100M, 2G; default mariabackup's own)."`
	PrepareReadIOPS int64    `name:"prepare-read-iops" placeholder:"N" help:"The prepare's disk reads held at N a second (a cgroup limit on the prepare alone, lifted when it ends; the prepare then reads with O_DIRECT): a disk of a given speed, where every page --use-memory misses is a read. 0: no cap."`
	Join            []string `default:"ist" placeholder:"JOIN" help:"How the node joins: ist, on the backup's position (an IST while a donor's write-set cache holds the writes since); sst, with its Galera position cleared (a full copy); ist,sst, the first, then, once Synced, a timed rejoin by SST."`
	Format          string   `short:"f" enum:"text,json" default:"text" help:"Output format: text, or json (what was done and when)."`
	JSON            bool     `hidden:"" aliasof:"format=json" help:"Print what was done and when as JSON: --format json."`
}

func (c *sandboxRestoreCmd) Run(ctx context.Context, cl *cli) error {
	sb, err := sandbox.Open(c.SandboxDir, c.Name)
	if err != nil {
		return err
	}
	if sb.Cluster == nil {
		return usage.Errorf("--name %s: sandbox restore needs a cluster sandbox (sandbox start --galera N)", c.Name)
	}
	sb.SetLog(logWriter(cl))
	if _, err := sb.Repair(ctx, os.Stderr); err != nil {
		return err
	}
	r, err := sb.Cluster.RestoreNode(ctx, c.Node, sandbox.RestoreOptions{From: c.From, UseMemory: c.UseMemory, Joins: c.Join, PrepareReadIOPS: c.PrepareReadIOPS})
	if err != nil {
		if usage.Is(err) {
			return usage.Errorf("sandbox %s: %v", c.Name, err)
		}
		return fmt.Errorf("sandbox %s: restore %s: %w", c.Name, c.Node, err)
	}
	if c.Format == "json" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(restoreJSONOf(r))
	}
	fmt.Printf("%s restored from a backup of %s (%.1f MB, %.1f MB of redo to apply), --use-memory %s\n", r.Node, r.From,
		float64(r.BackupBytes)/1e6, float64(r.RedoBytes)/1e6, cmp.Or(r.UseMemory, "default"))
	fmt.Printf("backup %.1fs (not counted); restore %.1fs: prepare (redo apply) %.1fs = %.0f%%, copy %.1fs, join until Synced %.1fs (%s)\n",
		r.BackupEnd.Sub(r.BackupStart).Seconds(), r.RestoreSeconds(), r.PrepareSeconds(), 100*r.RedoShare(),
		r.CopyEnd.Sub(r.CopyStart).Seconds(), r.Join.Synced.Sub(r.CopyEnd).Seconds(), r.Join.Transfer)
	if r.PrepareReadIOPS > 0 {
		fmt.Printf("the prepare's reads held at %d a second on disk %s, with O_DIRECT: it read %d times (%.1f MB) from the disk\n",
			r.PrepareReadIOPS, r.PrepareReadDevice, r.PrepareReadOps, float64(r.PrepareReadBytes)/1e6)
	}
	if sst, ok := r.SSTJoin(); ok && r.Rejoin.Transfer != "" {
		fmt.Printf("rejoin by SST %.1fs from its start to Synced: %.1f MB in a transfer of %.1fs, streamed by its donor in %.1fs\n", sst.JoinSeconds(),
			float64(sst.TransferBytes)/1e6, sst.TransferSeconds(), sst.StreamSeconds())
	}
	return nil
}

// restoreJSON is a Restore for scripts: its times, and its durations in
// seconds.
type restoreJSON struct {
	Node           string    `json:"node"`
	From           string    `json:"from"`
	UseMemory      string    `json:"use_memory,omitempty"`
	BackupBytes    int64     `json:"backup_bytes"`
	RedoBytes      int64     `json:"redo_bytes"`
	Position       string    `json:"position"`
	BackupStart    time.Time `json:"backup_start"`
	BackupSeconds  float64   `json:"backup_s"`
	PrepareSeconds float64   `json:"prepare_s"`
	CopySeconds    float64   `json:"copy_s"`
	JoinSeconds    float64   `json:"join_s"`
	RestoreSeconds float64   `json:"restore_s"`
	RedoShare      float64   `json:"redo_share"`
	Method         string    `json:"method"`
	// PrepareReadIOPS is the prepare's read cap (0: none) and
	// PrepareReadOps what it read from the disk under it.
	PrepareReadIOPS int64 `json:"prepare_read_iops,omitempty"`
	PrepareReadOps  int64 `json:"prepare_read_ops,omitempty"`
	// The join by SST (--join sst or ist,sst): from the node's start to
	// Synced, its transfer as the joiner's log bounds it, the data it
	// left.
	SSTJoinSeconds     float64 `json:"sst_join_s,omitempty"`
	SSTTransferSeconds float64 `json:"sst_transfer_s,omitempty"`
	SSTStreamSeconds   float64 `json:"sst_stream_s,omitempty"`
	SSTBytes           int64   `json:"sst_bytes,omitempty"`
}

func restoreJSONOf(r sandbox.Restore) restoreJSON {
	j := restoreJSON{Node: r.Node, From: r.From, UseMemory: r.UseMemory, BackupBytes: r.BackupBytes, RedoBytes: r.RedoBytes,
		Position: r.Position, BackupStart: r.BackupStart, BackupSeconds: r.BackupEnd.Sub(r.BackupStart).Seconds(),
		PrepareSeconds: r.PrepareSeconds(), CopySeconds: r.CopyEnd.Sub(r.CopyStart).Seconds(),
		JoinSeconds: r.Join.Synced.Sub(r.CopyEnd).Seconds(), RestoreSeconds: r.RestoreSeconds(), RedoShare: r.RedoShare(),
		Method: r.Join.Transfer, PrepareReadIOPS: r.PrepareReadIOPS, PrepareReadOps: r.PrepareReadOps}
	if sst, ok := r.SSTJoin(); ok {
		j.SSTJoinSeconds, j.SSTTransferSeconds, j.SSTStreamSeconds, j.SSTBytes = sst.JoinSeconds(), sst.TransferSeconds(), sst.StreamSeconds(), sst.TransferBytes
	}
	return j
}
