package experiment

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/usage"
)

// The MTTR model of the restore lesson: the rates a restore measured
// (the backup's copy, the redo applied per --use-memory, the move into
// the data directory, the node's start, the joiner's catch-up) project
// the time to rebuild a node of another size under another write rate.
// Every phase is a size or an amount of redo over a measured rate, but
// the start and the join's own cost, which are measured constants:
//
//	backup   Tb = S / rb
//	prepare  Tp = R / ra(m),  R = A + W × Tb
//	copy     Tc = S / rc
//	start    Ts = the measured start
//	join     Tj = J0 + W × G / (rj − W),  G = Tp + Tc + Ts
//	MTTR        = Tb + Tp + Tc + Ts + Tj
//
// The join is an IST while a donor's write-set cache holds the W × G
// written since the backup; smaller, it is an SST, a full copy, whose
// rate the lesson measures with --join sst (restore_sst.go):
//
//	SST join Tsj = F + X + W × X / (rj − W),  X = S / rs
//	MTTR(SST)    = Tb + Tp + Tc + Tsj
//
// S is the data size, W the write rate in redo bytes per second, m the
// --use-memory, A the redo the backup starts with (the checkpoint age
// measured), J0 the measured join (the state transfer's own cost, with
// the few writes it brought), rj the joiner's apply rate, taken as the
// fastest redo apply measured; rs the SST's data over the time its donor
// streamed it, F the rest of the SST join measured (the start, the SST
// script's fixed wait, the joiner's prepare and move, its end until
// Synced). MTTRText states it for the pages.

// restorePhasesFile is the restore lesson's measurements, beside its page.
const restorePhasesFile = "restore-phases.json"

// restorePhasesFormat is the version of restorePhasesFile's layout.
const restorePhasesFormat = 1

// restorePhases is what restorePhasesFile holds: the dataset and every
// restore's phases, for a projection or a validation later.
type restorePhases struct {
	Format    int               `json:"format"`
	TableSize int64             `json:"table_size"`
	Threads   int               `json:"threads"`
	Restores  []measuredRestore `json:"restores"`
}

// measuredRestore is one restore's phases, in bytes and seconds.
type measuredRestore struct {
	UseMemory string `json:"use_memory"`
	// Backup names the backup the prepare was of (its start, RFC 3339):
	// with --one-backup a repetition's prepares share one, and its
	// backup, copy, start and join were measured once, by the restore
	// of the last. Empty in files written before it was kept: each row
	// its own backup.
	Backup      string `json:"backup,omitempty"`
	BackupBytes int64  `json:"backup_bytes"`
	// RedoBytes is the redo the prepare applied (Restore.PrepareRedo:
	// from the checkpoint its recovery started at, as its log says, to
	// the backup's end), the R of the model.
	RedoBytes int64 `json:"redo_bytes"`
	// BackupSeconds: mariabackup --backup; PrepareSeconds: --prepare (the
	// redo apply); CopySeconds: the node stopped and the backup moved
	// into its data directory; StartSeconds: from there to the start of
	// its state transfer; JoinSeconds: from that start to Synced.
	BackupSeconds  float64 `json:"backup_seconds"`
	PrepareSeconds float64 `json:"prepare_seconds"`
	CopySeconds    float64 `json:"copy_seconds"`
	StartSeconds   float64 `json:"start_seconds"`
	JoinSeconds    float64 `json:"join_seconds"`
	// GapSeconds is from the backup's end (its Galera position) to the
	// start of the join: the writes the join had to bring.
	GapSeconds        float64 `json:"gap_seconds"`
	Transfer          string  `json:"transfer"`
	TransferWritesets int64   `json:"transfer_writesets,omitempty"`
	// WrittenBytes is the redo a serving node wrote (its
	// Innodb_lsn_current) over WrittenSeconds, from just before the
	// backup to the restored node Synced: the cluster's write rate.
	// CheckpointAge is that node's Innodb_checkpoint_age before the
	// backup: the redo a backup starts with whatever its length. 0 when
	// not measured.
	WrittenBytes   int64   `json:"written_bytes,omitempty"`
	WrittenSeconds float64 `json:"written_seconds,omitempty"`
	CheckpointAge  int64   `json:"checkpoint_age,omitempty"`
	// PrepareReadIOPS is the cap the prepare's disk reads were held at
	// (--prepare-read-iops; 0: none), and PrepareReadOps what it read
	// under it: its PrepareSeconds are on a disk of that speed.
	PrepareReadIOPS int64 `json:"prepare_read_iops,omitempty"`
	PrepareReadOps  int64 `json:"prepare_read_ops,omitempty"`
	// SSTSeconds is the restore's join by a full state transfer (--join
	// sst): from the node's start, its Galera position cleared, to
	// Synced; SSTTransferSeconds the transfer itself, as the joiner's
	// log bounds it; SSTStreamSeconds the donor's streaming of its
	// backup, as the donor's log bounds it (after the SST script's fixed
	// wait; 0 when it does not say); SSTBytes the data it left. 0: no
	// SST join.
	SSTSeconds         float64 `json:"sst_seconds,omitempty"`
	SSTTransferSeconds float64 `json:"sst_transfer_seconds,omitempty"`
	SSTStreamSeconds   float64 `json:"sst_stream_seconds,omitempty"`
	SSTBytes           int64   `json:"sst_bytes,omitempty"`
}

// redoWritten is a serving node's redo around one restore.
type redoWritten struct {
	bytes, age int64
	seconds    float64
}

// redoMark is a serving node's redo position before a restore.
type redoMark struct {
	at       time.Time
	lsn, age int64
	ok       bool
}

// redoStatus reads the first of eps' Innodb_lsn_current and
// Innodb_checkpoint_age; ok false when it cannot.
func redoStatus(ctx context.Context, eps []server.Endpoint) (lsn, age int64, ok bool) {
	if len(eps) == 0 {
		return 0, 0, false
	}
	db, err := eps[0].OpenDB()
	if err != nil {
		return 0, 0, false
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_lsn_current', 'Innodb_checkpoint_age')")
	if err != nil {
		return 0, 0, false
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		var name string
		var v int64
		if rows.Scan(&name, &v) != nil {
			return 0, 0, false
		}
		switch strings.ToLower(name) {
		case "innodb_lsn_current":
			lsn, n = v, n+1
		case "innodb_checkpoint_age":
			age = v
		}
	}
	return lsn, age, rows.Err() == nil && n == 1
}

// redoMark notes a serving node's redo position before a restore.
func (e *env) redoMark(ctx context.Context, serving []server.Endpoint) redoMark {
	lsn, age, ok := redoStatus(ctx, serving)
	return redoMark{at: time.Now(), lsn: lsn, age: age, ok: ok}
}

// noteRedo notes the redo the serving node wrote during restore r.
func (e *env) noteRedo(ctx context.Context, serving []server.Endpoint, m redoMark, r sandbox.Restore) {
	if !m.ok || r.BackupStart.IsZero() {
		return
	}
	lsn, _, ok := redoStatus(ctx, serving)
	if !ok || lsn < m.lsn {
		e.logf("warning: the redo written during the restore could not be read: the write rate is taken from the backup's redo")
		return
	}
	if e.redo == nil {
		e.redo = map[time.Time]redoWritten{}
	}
	e.redo[r.BackupStart] = redoWritten{bytes: lsn - m.lsn, age: m.age, seconds: time.Since(m.at).Seconds()}
}

// measure turns a restore's times into its phases.
func measure(r sandbox.Restore, w redoWritten) measuredRestore {
	m := measuredRestore{UseMemory: r.UseMemory, Backup: backupName(r.BackupStart), BackupBytes: r.BackupBytes, RedoBytes: r.PrepareRedo(),
		BackupSeconds: r.BackupSeconds(), PrepareSeconds: r.PrepareSeconds(),
		CopySeconds: r.CopySeconds(), Transfer: r.Join.Transfer, TransferWritesets: r.Join.TransferWritesets}
	// The join starts with the state transfer, as the joiner's log dates
	// it (to the second); without one, when the node was writable.
	join := r.Join.TransferStart
	if join.IsZero() || join.Before(r.CopyEnd) {
		join = cmp.Or(r.Join.Writable, r.Join.Synced)
	}
	if !r.Join.Synced.IsZero() && join.After(r.Join.Synced) {
		join = r.Join.Synced
	}
	m.StartSeconds = max(0, join.Sub(r.CopyEnd).Seconds())
	m.JoinSeconds = max(0, r.Join.Synced.Sub(join).Seconds())
	m.GapSeconds = max(0, join.Sub(r.BackupEnd).Seconds())
	m.WrittenBytes, m.WrittenSeconds, m.CheckpointAge = w.bytes, w.seconds, w.age
	m.PrepareReadIOPS, m.PrepareReadOps = r.PrepareReadIOPS, r.PrepareReadOps
	if sst, ok := r.SSTJoin(); ok {
		m.SSTSeconds, m.SSTTransferSeconds, m.SSTStreamSeconds, m.SSTBytes = sst.JoinSeconds(), sst.TransferSeconds(), sst.StreamSeconds(), sst.TransferBytes
	}
	return m
}

// backupName names the backup started at t; empty when it was not.
func backupName(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// restores are f's restores, one per backup: the first row of each
// backup that several prepares share (their backup, copy, start and join
// are one measurement, repeated in each row), and every row without a
// backup name.
func (f restorePhases) restores() []measuredRestore {
	var out []measuredRestore
	seen := map[string]bool{}
	for _, m := range f.Restores {
		if m.Backup != "" {
			if seen[m.Backup] {
				continue
			}
			seen[m.Backup] = true
		}
		out = append(out, m)
	}
	return out
}

// sstScaled is the part of the SST join that scales with the data: the
// donor's streaming of its backup, or without it the whole transfer.
func (m measuredRestore) sstScaled() float64 {
	if m.SSTStreamSeconds > 0 {
		return m.SSTStreamSeconds
	}
	return m.SSTTransferSeconds
}

// WriteRate is the write rate the restore was measured under, in redo
// bytes per second: a serving node's, or without it the redo the backup
// gathered per second of backup.
func (m measuredRestore) WriteRate() float64 {
	if m.WrittenSeconds > 0 {
		return float64(m.WrittenBytes) / m.WrittenSeconds
	}
	return ratio(float64(m.RedoBytes), m.BackupSeconds)
}

// startRedo is the redo the backup started with: the checkpoint age
// measured, or what the backup's redo holds beyond the writes of its
// length.
func (m measuredRestore) startRedo() float64 {
	if m.CheckpointAge > 0 {
		return float64(m.CheckpointAge)
	}
	return max(0, float64(m.RedoBytes)-m.WriteRate()*m.BackupSeconds)
}

// Whole is the lesson's whole restore: prepare, copy, start and join.
func (m measuredRestore) Whole() float64 {
	return m.PrepareSeconds + m.CopySeconds + m.StartSeconds + m.JoinSeconds
}

// phasesOf is the measured file of a lesson's results.
func phasesOf(o Options, results []restoreResult, redo map[time.Time]redoWritten) restorePhases {
	f := restorePhases{Format: restorePhasesFormat, TableSize: o.TableSize, Threads: o.Threads}
	for _, res := range results {
		for _, r := range res.restores {
			f.Restores = append(f.Restores, measure(r, redo[r.BackupStart]))
		}
	}
	return f
}

func (f restorePhases) write(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, restorePhasesFile)
	return p, os.WriteFile(p, append(b, '\n'), 0o644)
}

// readRestorePhases reads a restorePhasesFile, for flag: a path the user
// gave, or the folder holding it.
func readRestorePhases(flag, path string) (restorePhases, error) {
	var f restorePhases
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, restorePhasesFile)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return f, usage.Errorf("%s %s: %v (give the %s an earlier restore lesson wrote, or its folder)", flag, path, errors.Unwrap(err), restorePhasesFile)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, usage.Errorf("%s %s: not a %s: %v", flag, path, restorePhasesFile, err)
	}
	if f.Format != restorePhasesFormat {
		return f, usage.Errorf("%s %s: format %d, this joinbench reads format %d", flag, path, f.Format, restorePhasesFormat)
	}
	if len(f.Restores) == 0 {
		return f, usage.Errorf("%s %s: it holds no restore", flag, path)
	}
	return f, nil
}

// Sizes and rates of the projection flags.

var sizeText = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)\s*([KMGTP]?)(I?B)?$`)

// ParseSize reads a size: a number of bytes, or of K, M, G, T or P
// (powers of 1024, as --use-memory), with an optional B or iB (10T,
// 10TB, 10TiB, 1.5G).
func ParseSize(flag, s string) (float64, error) {
	m := sizeText.FindStringSubmatch(strings.ToUpper(strings.TrimSpace(s)))
	if m == nil || (m[2] == "" && m[3] == "IB") {
		return 0, usage.Errorf("%s %q: give a size, a number with K, M, G, T or P (powers of 1024), e.g. 10T or 500G", flag, s)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) {
		return 0, usage.Errorf("%s %q: give a size above zero, e.g. 10T", flag, s)
	}
	return v * math.Pow(1024, float64(strings.Index("KMGTP", m[2])+1)*boolf(m[2] != "")), nil
}

// ParseRate reads a rate: a size per second (30MB/s, 30M/s, 30M).
func ParseRate(flag, s string) (float64, error) {
	t := strings.TrimSpace(s)
	for _, per := range []string{"/s", "/sec", "ps"} {
		if strings.HasSuffix(strings.ToLower(t), per) && len(t) > len(per) {
			t = t[:len(t)-len(per)]
			break
		}
	}
	v, err := ParseSize(flag, t)
	if err != nil {
		return 0, usage.Errorf("%s %q: give a rate, a size per second with K, M or G (powers of 1024), e.g. 30MB/s", flag, s)
	}
	return v, nil
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// bytesText writes a size in the units ParseSize reads.
func bytesText(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b, i = b/1024, i+1
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	if b >= 100 {
		return fmt.Sprintf("%.0f %s", b, units[i])
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}

// durationText writes seconds as s, min or h.
func durationText(s float64) string {
	switch {
	case math.IsInf(s, 1):
		return "never"
	case s < 90:
		return fmt.Sprintf("%.1f s", s)
	case s < 90*60:
		return fmt.Sprintf("%.1f min", s/60)
	default:
		return fmt.Sprintf("%.1f h", s/3600)
	}
}

// The model.

// ApplyRate is the redo applied per second of prepare with one
// --use-memory value.
type ApplyRate struct {
	UseMemory   string
	BytesPerSec float64
	// Fixed is the prepare's seconds that do not scale with the redo,
	// fitted over restores of several sizes (mttr_fit.go); 0 otherwise.
	Fixed float64
}

// Rates are what the model projects from, each measured by a restore.
type Rates struct {
	// DataBytes and WriteRate are what the rates were measured at: the
	// backup's size and the redo written per second of backup.
	DataBytes, WriteRate float64
	// Backup is the data copied per second of mariabackup --backup; Copy
	// per second of the move into the data directory (node stop
	// included); Apply the redo applied per second of --prepare, per
	// --use-memory, in the order measured.
	Backup, Copy float64
	Apply        []ApplyRate
	// BackupFixed and CopyFixed are the seconds of the backup and the
	// copy that do not scale with the data, fitted when the restores span
	// several sizes (Sizes, the smallest and the largest backup; Fitted
	// names the phases fitted); 0 otherwise, each rate then over the sums.
	BackupFixed, CopyFixed float64
	Sizes                  [2]float64
	Fitted                 []string
	// StartSeconds is the node's start until its join begins, and
	// JoinSeconds its join as measured: constants, not scaled.
	StartSeconds, JoinSeconds float64
	// StartRedo is the redo a backup starts with (its checkpoint age):
	// a constant, not scaled.
	StartRedo float64
	// Join is the joiner's apply rate of the writes since the backup,
	// in redo bytes per second: the fastest redo apply measured.
	Join float64
	// ISTJoins is how many of the restores' joins JoinSeconds is the
	// mean of: those that were not a full state transfer.
	ISTJoins int
	// SST is a full state transfer's rate: the data the SST joins left
	// over the seconds their donors streamed it (as the donors' logs
	// bound it; without them, the transfers' as the joiners' logs do);
	// SSTFixed the rest of an SST join: the node's start, the SST
	// script's set-up and fixed wait, the joiner's prepare and move, its
	// end until Synced (a constant, not scaled); SSTBytes and
	// SSTSeconds the sums the rate is of; SSTJoins how many SST joins
	// were measured (0: none, no SST projected).
	SST, SSTFixed        float64
	SSTBytes, SSTSeconds float64
	SSTJoins             int
	// Restores is how many restores the rates are the mean of, one per
	// backup; Prepares how many prepares the apply rates are (more than
	// Restores with --one-backup).
	Restores, Prepares int
	// applied is each --use-memory's redo applied and prepare seconds.
	applied map[string][2]float64
}

// ratesOf are the rates of f's restores: each rate is the sum of its
// amount over the sum of its time, over the restores.
func ratesOf(f restorePhases) Rates {
	var r Rates
	var data, backup, copyS, written, writtenS, start, age, join float64
	apply := map[string][2]float64{}
	r.applied = map[string][2]float64{}
	var order []string
	for _, m := range f.restores() {
		r.Restores++
		data += float64(m.BackupBytes)
		backup += m.BackupSeconds
		copyS += m.CopySeconds
		start += m.StartSeconds
		age += m.startRedo()
		// J0 is an IST's own cost: a join that was a full copy is not.
		if m.Transfer != sandbox.TransferSST {
			join += m.JoinSeconds
			r.ISTJoins++
		}
		if m.SSTSeconds > 0 && m.SSTBytes > 0 {
			r.SSTJoins++
			secs := m.sstScaled()
			r.SSTBytes, r.SSTSeconds = r.SSTBytes+float64(m.SSTBytes), r.SSTSeconds+secs
			r.SSTFixed += max(0, m.SSTSeconds-secs)
		}
		if m.WrittenSeconds > 0 {
			written, writtenS = written+float64(m.WrittenBytes), writtenS+m.WrittenSeconds
		} else {
			written, writtenS = written+float64(m.RedoBytes), writtenS+m.BackupSeconds
		}
	}
	// Every prepare is its own redo apply, shared backup or not.
	for _, m := range f.Restores {
		r.Prepares++
		a := apply[m.UseMemory]
		apply[m.UseMemory] = [2]float64{a[0] + float64(m.RedoBytes), a[1] + m.PrepareSeconds}
		if !slices.Contains(order, m.UseMemory) {
			order = append(order, m.UseMemory)
		}
	}
	n := float64(r.Restores)
	r.DataBytes, r.WriteRate = data/n, ratio(written, writtenS)
	r.Backup, r.Copy, r.StartSeconds, r.StartRedo = ratio(data, backup), ratio(data, copyS), start/n, age/n
	if r.ISTJoins > 0 {
		r.JoinSeconds = join / float64(r.ISTJoins)
	}
	if r.SSTJoins > 0 {
		r.SST, r.SSTFixed = ratio(r.SSTBytes, r.SSTSeconds), r.SSTFixed/float64(r.SSTJoins)
	}
	for _, mem := range order {
		a := ApplyRate{UseMemory: mem, BytesPerSec: ratio(apply[mem][0], apply[mem][1])}
		r.applied[mem] = apply[mem]
		r.Apply = append(r.Apply, a)
	}
	fitRates(&r, f)
	for _, a := range r.Apply {
		r.Join = max(r.Join, a.BytesPerSec)
	}
	return r
}

// ratio is a/b, +Inf when b is 0 and a is not, 0 when both are.
func ratio(a, b float64) float64 {
	switch {
	case b > 0:
		return a / b
	case a > 0:
		return math.Inf(1)
	}
	return 0
}

// Projection is one rebuild of a node projected at a size and write
// rate with one --use-memory.
type Projection struct {
	UseMemory                                 string
	Size, WriteRate                           float64 // bytes, redo bytes per second
	Backup, Prepare, Copy, Start, Join, Total float64 // seconds; Join +Inf: never caught up
	Redo                                      float64 // redo to apply, bytes
	Gap                                       float64 // seconds of writes the join brings
	GCache                                    float64 // bytes a donor must hold for an IST
	// SSTTransfer, SSTJoin and SSTTotal are the same rebuild had its join
	// been a full state transfer (the write-set cache smaller than
	// GCache): the copy X = S / rs, the join F + X + W × X / (rj − W)
	// (+Inf: never caught up), and backup, prepare, copy and that join;
	// all 0 when no SST was measured (HasSST false).
	SSTTransfer, SSTJoin, SSTTotal float64
	HasSST                         bool
	applyRate                      float64
}

// Project is the model: one node rebuilt at size bytes under write redo
// bytes per second, with the apply rate of the --use-memory value a.
func (r Rates) Project(size, write float64, a ApplyRate) Projection {
	p := Projection{UseMemory: a.UseMemory, Size: size, WriteRate: write, applyRate: a.BytesPerSec}
	p.Backup = r.BackupFixed + timeOf(size, r.Backup)
	p.Redo = r.StartRedo + write*p.Backup
	p.Prepare = a.Fixed + timeOf(p.Redo, a.BytesPerSec)
	p.Copy = r.CopyFixed + timeOf(size, r.Copy)
	p.Start = r.StartSeconds
	p.Gap = p.Prepare + p.Copy + p.Start
	p.GCache = write * p.Gap
	switch {
	case p.GCache == 0 || math.IsInf(r.Join, 1):
		p.Join = r.JoinSeconds
	case r.Join > write:
		p.Join = r.JoinSeconds + p.GCache/(r.Join-write)
	default:
		p.Join = math.Inf(1)
	}
	p.Total = p.Backup + p.Prepare + p.Copy + p.Start + p.Join
	if r.SSTJoins > 0 {
		p.HasSST = true
		p.SSTTransfer = timeOf(size, r.SST)
		p.SSTJoin = r.SSTFixed + p.SSTTransfer + catchUp(write*p.SSTTransfer, write, r.Join)
		p.SSTTotal = p.Backup + p.Prepare + p.Copy + p.SSTJoin
	}
	return p
}

// catchUp is the time a joiner applying rj takes to catch up with writes
// behind, while the cluster goes on writing w: behind / (rj − w); +Inf
// when it never does, 0 with nothing behind or an instant apply.
func catchUp(behind, w, rj float64) float64 {
	switch {
	case behind == 0 || math.IsInf(rj, 1):
		return 0
	case rj > w:
		return behind / (rj - w)
	}
	return math.Inf(1)
}

// SSTPhases are the phases of the rebuild whose join is an SST.
func (p Projection) SSTPhases() []Phase {
	return []Phase{{"backup", p.Backup}, {"prepare (redo apply)", p.Prepare}, {"copy into the data directory", p.Copy},
		{"join by SST", p.SSTJoin}}
}

// SSTDominant is the longest phase of the rebuild whose join is an SST.
func (p Projection) SSTDominant() Phase {
	return slices.MaxFunc(p.SSTPhases(), func(a, b Phase) int { return cmp.Compare(a.Seconds, b.Seconds) })
}

// timeOf is amount over rate: 0 for nothing, +Inf at no rate.
func timeOf(amount, rate float64) float64 {
	switch {
	case amount <= 0:
		return 0
	case rate <= 0:
		return math.Inf(1)
	case math.IsInf(rate, 1):
		return 0
	}
	return amount / rate
}

// Phase is one phase of a projection, by name.
type Phase struct {
	Name    string
	Seconds float64
}

// Phases are the projection's phases in their order.
func (p Projection) Phases() []Phase {
	return []Phase{{"backup", p.Backup}, {"prepare (redo apply)", p.Prepare}, {"copy into the data directory", p.Copy},
		{"start", p.Start}, {"join (IST catch-up)", p.Join}}
}

// Dominant is the longest phase.
func (p Projection) Dominant() Phase {
	ph := p.Phases()
	return slices.MaxFunc(ph, func(a, b Phase) int { return cmp.Compare(a.Seconds, b.Seconds) })
}

// HA is how long the cluster lacks a spare node: with one node lost it
// keeps 2 of 3 Synced throughout (MinimalHA 0) and is all Synced after
// one rebuild; with two lost (one survivor, bootstrapped alone) 2 of 3
// are Synced after one rebuild and all after a second, each rebuild
// taken from a fresh backup of a Synced node, one after the other.
type HA struct {
	Lost                 int
	MinimalHA, AllSynced float64
}

// HAOf is the time to 2 of 3 and to all Synced with one and two nodes
// of a three-node cluster lost, each rebuilt as p.
func HAOf(p Projection) []HA {
	return []HA{{Lost: 1, MinimalHA: 0, AllSynced: p.Total}, {Lost: 2, MinimalHA: p.Total, AllSynced: 2 * p.Total}}
}

// Saving is what a larger --use-memory saves against the first measured.
type Saving struct {
	From, To       string
	Seconds, Share float64 // of the whole rebuild with From
	Faster         float64 // To's apply rate over From's
	Prepare        float64 // the prepare's seconds saved
}

// Savings compares each --use-memory after the first to the first.
func Savings(ps []Projection) []Saving {
	var out []Saving
	for _, p := range ps[min(1, len(ps)):] {
		s := Saving{From: ps[0].UseMemory, To: p.UseMemory, Seconds: ps[0].Total - p.Total, Faster: ratio(p.applyRate, ps[0].applyRate), Prepare: ps[0].Prepare - p.Prepare}
		if ps[0].Total > 0 && !math.IsInf(ps[0].Total, 1) {
			s.Share = s.Seconds / ps[0].Total
		}
		out = append(out, s)
	}
	return out
}

// MTTRText is the model as the pages state it.
const MTTRText = "MTTR = backup + prepare + copy + start + join, with backup = Fb + S / rb, prepare = Fp + R / ra(use-memory) where R = A + W × backup, copy = Fc + S / rc, " +
	"start = the measured start, join = J0 + W × G / (rj − W) where G = prepare + copy + start; " +
	"S the data size, W the write rate (redo bytes per second), rb, rc and ra the backup's, the copy's and the redo apply's measured rates, " +
	"A the redo a backup starts with (the checkpoint age measured), J0 the join measured (the state transfer's own cost), " +
	"rj the joiner's apply rate, taken as the fastest redo apply measured. " +
	"The join is an IST while a donor's write-set cache holds the W × G written since the backup; smaller, it is an SST, a full copy: " +
	"SST join = F + X + W × X / (rj − W) where X = S / rs, and MTTR(SST) = backup + prepare + copy + SST join; " +
	"rs the SST's data over the time its donor streamed it and F the rest of the SST join (the node's start, the SST script's set-up and fixed wait, the joiner's prepare and move, its end until Synced), both measured by --join sst. " +
	"Fb, Fp and Fc are the fixed seconds of the backup, the prepare and the copy: fitted with their rates (least squares) when the rates come from restores of sizes at least 1.5x apart (--rates-from given several files), 0 otherwise, each rate then the bytes over the seconds."

// MTTRAssumptions are what the model takes to scale linearly, and what not.
var MTTRAssumptions = []string{
	"linear in the size: the backup and the copy at the measured bytes per second (the same disks; the copy here is a move within one file system, a copy-back to another disk is a copy), the redo apply at the measured bytes per second for each --use-memory, the joiner's apply at the measured redo bytes per second. From restores of one size the whole of each phase is scaled, its fixed costs (a process's start, a sync, a node's stop) with it, which over-predicts a larger size; from several sizes (--rates-from more than one file) a fixed part is fitted beside each rate and not scaled.",
	"not linear: the redo apply is buffer-pool bound: once the redo touches more pages than --use-memory holds, it slows down; rates measured with redo that fit the memory overstate the apply at a scale where it does not (measure with more redo than memory, or read the savings below as a floor).",
	"not scaled: the node's start (a far larger buffer pool or a long crash recovery lengthens it), the join's own cost J0, and the redo a backup starts with A (the checkpoint age, at most the redo log's size: give your server's Innodb_checkpoint_age if it differs much).",
	"rj is not measured: the joins measured brought few writes, their time is the state transfer's own cost; the joiner is taken to apply the writes since the backup as fast as the prepare applied redo at best.",
	"the join is an IST only while a donor's write-set cache (gcache.size) holds every write since the backup: it must hold W × G; smaller, the join is an SST, a full copy. A joiner that applies slower than the cluster writes (rj ≤ W) never catches up without flow control holding the cluster to its pace.",
	"the SST: its rate rs at the measured bytes per second of the donor's stream (its backup sent to the joiner, one disk to another on the same machine here: a network is slower); its fixed costs (the start, the SST script's set-up and its fixed wait before it streams) in F, not scaled, nor the joiner's prepare and move, which are short when few writes come during the copy; the writes made during the copy are caught up at rj as the IST's are.",
	"W is the redo written per second (the growth of Innodb_lsn_current, or Innodb_os_log_written, per second); the measured W0 is a serving node's over each restore.",
}

// ProjectionOptions are the projection's and the validation's flags,
// read.
type ProjectionOptions struct {
	Size, WriteRate float64 // 0: none given
	Validate        *restorePhases
	RatesFrom       *restorePhases
}

// projectionOptions reads the flags, each error one line naming it.
func projectionOptions(o Options) (ProjectionOptions, error) {
	var po ProjectionOptions
	var err error
	if o.ProjectSize != "" {
		if po.Size, err = ParseSize("--project-size", o.ProjectSize); err != nil {
			return po, err
		}
	}
	if o.ProjectWriteRate != "" {
		if po.WriteRate, err = ParseRate("--project-write-rate", o.ProjectWriteRate); err != nil {
			return po, err
		}
		if o.ProjectSize == "" {
			return po, usage.Errorf("--project-write-rate %s: give --project-size too", o.ProjectWriteRate)
		}
	}
	if o.Validate != "" {
		f, err := readRestorePhases("--validate", o.Validate)
		if err != nil {
			return po, err
		}
		po.Validate = &f
	}
	if len(o.RatesFrom) > 0 {
		var fs []restorePhases
		for _, path := range o.RatesFrom {
			f, err := readRestorePhases("--rates-from", path)
			if err != nil {
				return po, err
			}
			fs = append(fs, f)
		}
		f := mergePhases(fs)
		po.RatesFrom = &f
		if o.ProjectSize == "" && o.Validate == "" {
			return po, usage.Errorf("--rates-from %s: give --project-size (and --project-write-rate), or --validate", strings.Join(o.RatesFrom, ", "))
		}
	}
	return po, nil
}

// checkProjection refuses projection flags the lesson cannot use.
func checkProjection(name string, o Options) error {
	if name != "restore" {
		for flag, v := range map[string]string{"--project-size": o.ProjectSize, "--project-write-rate": o.ProjectWriteRate, "--validate": o.Validate, "--rates-from": strings.Join(o.RatesFrom, ",")} {
			if v != "" {
				return usage.Errorf("%s: only the restore lesson projects a recovery", flag)
			}
		}
		return nil
	}
	_, err := projectionOptions(o)
	return err
}

// restoreDone writes the restores' phases beside the page, and the page
// with its projection and validation.
func (e *env) restoreDone(results []restoreResult) *Page {
	p := restorePage(e.o, results)
	f := phasesOf(e.o, results, e.redo)
	if len(f.Restores) == 0 {
		return p
	}
	if path, err := f.write(e.o.Out); err != nil {
		e.logf("warning: %s: %v", restorePhasesFile, err)
	} else {
		e.logf("phases: %s", path)
	}
	po, err := projectionOptions(e.o)
	if err != nil {
		// Checked before the lesson ran; a file changed since is noted.
		p.Notes = append(p.Notes, "no projection: "+err.Error())
		return p
	}
	addProjection(p, f, po)
	return p
}

// ProjectRestore is the restore lesson's projection alone, from the
// phases a restore lesson wrote (--rates-from), with no sandbox.
func ProjectRestore(o Options) (*Page, error) {
	if err := checkProjection("restore", o); err != nil {
		return nil, err
	}
	po, err := projectionOptions(o)
	if err != nil {
		return nil, err
	}
	if po.RatesFrom == nil {
		return nil, usage.Errorf("a projection without a sandbox needs --rates-from")
	}
	rates := ratesOf(*po.RatesFrom)
	p := &Page{Lesson: "restore-projection", Title: "restore: the recovery projected from measured rates",
		What: fmt.Sprintf("The rates of %d restore(s) of %s, read from %s, projected by the model below.",
			rates.Restores, ratesDataText(*po.RatesFrom, rates), strings.Join(o.RatesFrom, " and "))}
	n := rates.Restores
	p.Tally = Tally{Unit: "measured restores", Judged: n, Planned: n}
	addProjection(p, *po.RatesFrom, po)
	if p.Verdict == "" {
		p.Verdict = "no projection asked for"
	}
	return p, nil
}

// ratesDataText says what data the rates were measured on: a main1 of a
// size, or of several when the files differ.
func ratesDataText(f restorePhases, r Rates) string {
	if r.Sizes[1] > 0 {
		return fmt.Sprintf("backups of %s to %s", bytesText(r.Sizes[0]), bytesText(r.Sizes[1]))
	}
	if f.TableSize == 0 {
		return fmt.Sprintf("main1 tables of several sizes (%s on average)", bytesText(r.DataBytes))
	}
	return fmt.Sprintf("a %d-row main1 (%s)", f.TableSize, bytesText(r.DataBytes))
}

// addProjection adds to p the model, the validation (po.Validate) and
// the projection (po.Size), from the rates of f.
func addProjection(p *Page, f restorePhases, po ProjectionOptions) {
	if po.Size == 0 && po.Validate == nil {
		return
	}
	rates := ratesOf(f)
	notes := MTTRAssumptions
	if c := cappedNote(f); c != "" {
		notes = append(slices.Clone(notes), c)
	}
	p.Sections = append(p.Sections, Section{Title: "The MTTR model", Text: MTTRText, Notes: notes, Table: ratesTable(rates)})
	var verdicts []string
	if po.Validate != nil {
		s, missed, v := validation(f, *po.Validate)
		p.Sections = append(p.Sections, s)
		verdicts = append(verdicts, v)
		if missed != "" {
			p.Notes = append(p.Notes, missed)
		}
	}
	if po.Size > 0 {
		write := cmp.Or(po.WriteRate, rates.WriteRate)
		s, v := projection(rates, po.Size, write, po.WriteRate == 0)
		p.Sections = append(p.Sections, s)
		verdicts = append(verdicts, v)
	}
	if p.Verdict == "" {
		p.Verdict = strings.Join(verdicts, "; ")
	} else {
		p.Verdict += ". " + strings.Join(verdicts, "; ")
	}
}

// cappedNote says, when the prepares of f were measured with their reads
// capped (--prepare-read-iops), what the redo apply rates then are.
func cappedNote(f restorePhases) string {
	var caps []int64
	for _, r := range f.Restores {
		if r.PrepareReadIOPS > 0 && !slices.Contains(caps, r.PrepareReadIOPS) {
			caps = append(caps, r.PrepareReadIOPS)
		}
	}
	if len(caps) == 0 {
		return ""
	}
	slices.Sort(caps)
	var s []string
	for _, c := range caps {
		s = append(s, strconv.FormatInt(c, 10))
	}
	return fmt.Sprintf("the prepares were measured with their disk reads held at %s a second (--prepare-read-iops): each redo apply rate ra is the apply on a disk of that speed, "+
		"and projects a node whose disk has that budget; rj, the fastest ra, is then a joiner on such a disk too (a joiner applies write-sets to its buffer pool and may read less than a starved prepare: rj is a floor).",
		strings.Join(s, " and "))
}

// ratesTable is the measured rates the projection uses.
func ratesTable(r Rates) Table {
	t := Table{Header: []string{"measured rate", "value"}, Rows: [][]string{
		{"data (backup size)", bytesText(r.DataBytes)},
		{"write rate W0 (a serving node's redo per second)", bytesText(r.WriteRate) + "/s"},
		{"backup rb", withFixed(bytesText(r.Backup)+"/s", r.BackupFixed, "Fb")},
		{"copy into the data directory rc", withFixed(bytesText(r.Copy)+"/s", r.CopyFixed, "Fc")},
		{"redo a backup starts with A (constant)", bytesText(r.StartRedo)},
		{"start Ts (constant)", durationText(r.StartSeconds)},
		{"join J0 (constant)", durationText(r.JoinSeconds)},
		{"joiner's apply rj (the fastest ra)", rateText(r.Join)},
	}}
	if r.ISTJoins == 0 {
		t.Rows[6][1] = "not measured (every join was an SST)"
	}
	if r.SSTJoins > 0 {
		t.Rows = append(t.Rows, []string{"SST rs (data sent over its stream's time)", fmt.Sprintf("%s (%s in %s, %d SST join(s))", rateText(r.SST), bytesText(r.SSTBytes), durationText(r.SSTSeconds), r.SSTJoins)},
			[]string{"SST join's rest F (constant)", durationText(r.SSTFixed)})
	} else {
		t.Rows = append(t.Rows, []string{"SST rs", "not measured (no restore here joined by SST: run the lesson with --join ist,sst)"})
	}
	for _, a := range r.Apply {
		got := r.applied[a.UseMemory]
		t.Rows = append(t.Rows, []string{"redo apply ra, --use-memory " + cmp.Or(a.UseMemory, "default"),
			applyText(a, got)})
	}
	restores := strconv.Itoa(r.Restores)
	if r.Prepares > r.Restores {
		restores += fmt.Sprintf(" (%d prepares of their backups)", r.Prepares)
	}
	t.Rows = append(t.Rows, []string{"restores", restores})
	if len(r.Fitted) > 0 {
		t.Rows = append(t.Rows, []string{"fitted over the sizes", fmt.Sprintf("%s to %s: %s, each a fixed part and a rate", bytesText(r.Sizes[0]), bytesText(r.Sizes[1]), strings.Join(r.Fitted, ", "))})
	} else if r.Sizes[1] > 0 {
		t.Rows = append(t.Rows, []string{"fitted over the sizes", fmt.Sprintf("%s to %s: no phase (no fit held: a negative fixed part, no positive rate, or amounts closer than 1.5x; the noise is larger than the size's effect)", bytesText(r.Sizes[0]), bytesText(r.Sizes[1]))})
	}
	return t
}

// applyText is a redo apply rate's text with what it was measured on
// (got: the redo and the seconds of its prepares, summed); a fitted rate
// is not their ratio, and says so.
func applyText(a ApplyRate, got [2]float64) string {
	if a.Fixed <= 0 {
		return fmt.Sprintf("%s (%s in %s)", rateText(a.BytesPerSec), bytesText(got[0]), durationText(got[1]))
	}
	return fmt.Sprintf("%s, Fp %s fixed per prepare (fitted; the prepares applied %s in %s)", rateText(a.BytesPerSec), durationText(a.Fixed), bytesText(got[0]), durationText(got[1]))
}

// withFixed is a rate's text with the fixed part fitted beside it (name:
// its symbol in the model), or the rate alone when none was.
func withFixed(rate string, fixed float64, name string) string {
	if fixed <= 0 {
		return rate
	}
	return fmt.Sprintf("%s, %s %s fixed", rate, name, durationText(fixed))
}

func rateText(r float64) string {
	if math.IsInf(r, 1) {
		return "instant (no time measured)"
	}
	return bytesText(r) + "/s"
}

// projection is the section of a projection at size and write, and its
// verdict.
func projection(r Rates, size, write float64, measuredW bool) (Section, string) {
	var ps []Projection
	for _, a := range r.Apply {
		ps = append(ps, r.Project(size, write, a))
	}
	wText := bytesText(write) + "/s of redo"
	if measuredW {
		wText += " (the measured write rate: give --project-write-rate for yours)"
	}
	s := Section{Title: fmt.Sprintf("Projected: one node rebuilt at %s under %s", bytesText(size), wText)}
	s.Table.Header = []string{"phase"}
	for _, p := range ps {
		s.Table.Header = append(s.Table.Header, "--use-memory "+cmp.Or(p.UseMemory, "default"))
	}
	for i, ph := range ps[0].Phases() {
		row := []string{ph.Name}
		for _, p := range ps {
			row = append(row, durationText(p.Phases()[i].Seconds))
		}
		s.Table.Rows = append(s.Table.Rows, row)
	}
	add := func(name string, f func(Projection) string) {
		row := []string{name}
		for _, p := range ps {
			row = append(row, f(p))
		}
		s.Table.Rows = append(s.Table.Rows, row)
	}
	add("until the join begins", func(p Projection) string { return durationText(p.Backup + p.Gap) })
	add("MTTR (one node, all Synced)", func(p Projection) string { return durationText(p.Total) })
	add("dominant phase", func(p Projection) string { return dominantText(p) })
	add("redo to apply", func(p Projection) string { return bytesText(p.Redo) })
	add("gcache for an IST (W × G)", func(p Projection) string { return bytesText(p.GCache) })
	for _, lost := range []int{1, 2} {
		add(fmt.Sprintf("%d lost: 2 of 3 Synced", lost), func(p Projection) string { return durationText(HAOf(p)[lost-1].MinimalHA) })
		add(fmt.Sprintf("%d lost: all Synced", lost), func(p Projection) string { return durationText(HAOf(p)[lost-1].AllSynced) })
	}
	if r.SSTJoins > 0 {
		add("join if an SST (gcache < W × G)", func(p Projection) string { return durationText(p.SSTJoin) })
		add("MTTR if the join is an SST", func(p Projection) string { return durationText(p.SSTTotal) })
		add("dominant phase then", func(p Projection) string { return sstDominantText(p) })
		add("rebuilt by SST alone (no backup)", func(p Projection) string { return durationText(p.SSTJoin) })
	}
	s.Notes = append(s.Notes,
		"1 lost: the two left stay Synced (2 of 3 throughout), the cluster has no spare until the rebuild is Synced; 2 lost: the survivor serves alone, the two are rebuilt one after the other, each from a fresh backup of a Synced node.",
		"the backup is counted: a node lost is rebuilt from a backup taken then (the lesson's own whole restore starts at the prepare).")
	if r.SSTJoins == 0 {
		s.Notes = append(s.Notes, "SST not projected: no restore here joined by SST (run the lesson with --join ist,sst to measure one).")
	}
	first := ps[0]
	v := fmt.Sprintf("projected at %s under %s: one node rebuilt in %s (--use-memory %s), %s dominates; with two nodes lost 2 of 3 Synced after %s, all after %s",
		bytesText(size), bytesText(write)+"/s", durationText(first.Total), cmp.Or(first.UseMemory, "default"), dominantText(first),
		durationText(HAOf(first)[1].MinimalHA), durationText(HAOf(first)[1].AllSynced))
	if math.IsInf(first.Join, 1) {
		v = fmt.Sprintf("projected at %s under %s: one node's rebuild never ends (--use-memory %s): the backup, prepare, copy and start take %s (the prepare %s), then the joiner (%s) applies slower than the cluster writes and never catches up unless flow control holds the cluster to its pace",
			bytesText(size), bytesText(write)+"/s", cmp.Or(first.UseMemory, "default"), durationText(first.Backup+first.Gap), durationText(first.Prepare), rateText(r.Join))
	}
	if first.HasSST {
		line := sstText(first)
		s.Notes = append(s.Notes, line)
		v += "; " + line
	}
	for _, sv := range Savings(ps) {
		to, from := cmp.Or(sv.To, "default"), cmp.Or(sv.From, "default")
		var line string
		switch {
		case math.IsNaN(sv.Seconds) || math.IsInf(sv.Seconds, 0):
			line = fmt.Sprintf("--use-memory %s instead of %s: the redo apply measured %.2fx as fast, the prepare %s %s; the rebuild's end cannot be compared (the joiner never catches up with one of them)",
				to, from, sv.Faster, durationText(math.Abs(sv.Prepare)), map[bool]string{true: "shorter", false: "longer"}[sv.Prepare >= 0])
		case sv.Seconds < 0:
			line = fmt.Sprintf("--use-memory %s instead of %s: the redo apply measured %.2fx as fast, the rebuild %s longer: more memory saves nothing at the measured rates", to, from, sv.Faster, durationText(-sv.Seconds))
		default:
			line = fmt.Sprintf("--use-memory %s instead of %s: the redo apply measured %.2fx as fast, the rebuild %s shorter (%s)", to, from, sv.Faster, durationText(sv.Seconds), share(sv.Share))
		}
		s.Notes = append(s.Notes, line)
		v += "; " + line
	}
	return s, v
}

// sstText says what the rebuild p takes when its join is an SST, and
// what dominates it then.
func sstText(p Projection) string {
	mem := cmp.Or(p.UseMemory, "default")
	if math.IsInf(p.SSTJoin, 1) {
		return fmt.Sprintf("if the write-set cache cannot cover the gap (less than %s), the join is an SST: its copy takes %s, then the joiner never catches up with the writes made meanwhile (rj ≤ W)",
			bytesText(p.GCache), durationText(p.SSTTransfer))
	}
	return fmt.Sprintf("if the write-set cache cannot cover the gap (less than %s), the join is an SST: %s (its copy %s), the rebuild %s (--use-memory %s), %s dominates; a node rebuilt by SST alone, without the backup, takes %s",
		bytesText(p.GCache), durationText(p.SSTJoin), durationText(p.SSTTransfer), durationText(p.SSTTotal), mem, sstDominantText(p), durationText(p.SSTJoin))
}

// sstDominantText names the longest phase of the rebuild by SST and its
// share.
func sstDominantText(p Projection) string {
	d := p.SSTDominant()
	if math.IsInf(p.SSTTotal, 1) {
		return d.Name + " (never ends)"
	}
	return fmt.Sprintf("%s (%s)", d.Name, share(ratio(d.Seconds, p.SSTTotal)))
}

// dominantText names the longest phase and its share of the rebuild.
func dominantText(p Projection) string {
	d := p.Dominant()
	if math.IsInf(p.Total, 1) {
		return d.Name + " (never ends)"
	}
	return fmt.Sprintf("%s (%s)", d.Name, share(ratio(d.Seconds, p.Total)))
}

// maxValidationError is the prediction error beyond which a page says
// its projection missed.
const maxValidationError = 0.30

// validation predicts the restores of the larger of two measurements
// from the rates of the smaller (at the larger's size and write rate),
// per phase and --use-memory: a section, what missed (empty when none),
// and a verdict.
//
// Rates fitted over several sizes (a holds restores of sizes 1.5x apart,
// mttr_fit.go) predict b, whichever is larger: that is the fit's test,
// at a size it was not fitted on.
func validation(a, b restorePhases) (Section, string, string) {
	small, large := a, b
	ra := ratesOf(a)
	fitted := ra.Sizes[1] > 0
	if !fitted && ra.DataBytes > ratesOf(b).DataBytes {
		small, large = b, a
	}
	rs, rl := ratesOf(small), ratesOf(large)
	from, fromSize, apart := fmt.Sprintf("the %s one(s)", bytesText(rs.DataBytes)), bytesText(rs.DataBytes), fmt.Sprintf("the sizes are %.1fx apart", ratio(rl.DataBytes, rs.DataBytes))
	if fitted {
		fromSize = fmt.Sprintf("%s–%s", bytesText(rs.Sizes[0]), bytesText(rs.Sizes[1]))
		from = "the rates fitted over " + fromSize
		apart = fmt.Sprintf("the size validated is %.1fx the largest fitted", ratio(rl.DataBytes, rs.Sizes[1]))
	}
	s := Section{Title: fmt.Sprintf("Validation: the %s restore(s) predicted from %s", bytesText(rl.DataBytes), from),
		Table: Table{Header: []string{"--use-memory", "phase", "measured", "its repetitions", "predicted", "error"}}}
	var missed, inNoise []string
	worst := 0.0
	for _, a := range rl.Apply {
		ar, ok := applyOf(rs, a.UseMemory)
		if !ok {
			continue
		}
		got := meanPhases(large, a.UseMemory)
		reps := phaseValues(large, a.UseMemory)
		// The validated restores' size, write rate and the redo their
		// backups started with are their scenario; the rates are the
		// others' (the smaller's, or the fit's).
		at := rs
		at.StartRedo = got.startRedo
		pred := at.Project(got.size, got.write, ar)
		mem := cmp.Or(a.UseMemory, "default")
		for i, c := range []struct {
			name       string
			meas, pred float64
		}{{"backup", got.backup, pred.Backup}, {"prepare (redo apply)", got.prepare, pred.Prepare}, {"copy into the data directory", got.copy, pred.Copy},
			{"start", got.start, pred.Start}, {"join (IST catch-up)", got.join, pred.Join}, {"MTTR", got.total(), pred.Total}} {
			e := relError(c.pred, c.meas)
			lo, hi := slices.Min(reps[i]), slices.Max(reps[i])
			rng := durationText(lo)
			if len(reps[i]) > 1 {
				rng = fmt.Sprintf("%s – %s", durationText(lo), durationText(hi))
			}
			s.Table.Rows = append(s.Table.Rows, []string{mem, c.name, durationText(c.meas), rng, durationText(c.pred), errorText(e)})
			if math.Abs(e) > maxValidationError {
				missed = append(missed, fmt.Sprintf("%s with %s (%s)", c.name, mem, errorText(e)))
				if len(reps[i]) > 1 && c.pred >= lo && c.pred <= hi {
					inNoise = append(inNoise, fmt.Sprintf("%s with %s", c.name, mem))
				}
			}
			if c.name == "MTTR" {
				worst = max(worst, math.Abs(e))
			}
		}
	}
	shared := len(s.Table.Rows) > 0
	if rs.SSTJoins > 0 && rl.SSTJoins > 0 && len(rs.Apply) > 0 {
		// The SST join, which no --use-memory bounds: the larger's
		// mean, predicted at its own size and write rate.
		size, write, secs := sstMeans(large)
		pred := rs.Project(size, write, rs.Apply[0]).SSTJoin
		e := relError(pred, mean(secs))
		rng := durationText(slices.Min(secs))
		if len(secs) > 1 {
			rng = fmt.Sprintf("%s – %s", durationText(slices.Min(secs)), durationText(slices.Max(secs)))
		}
		s.Table.Rows = append(s.Table.Rows, []string{"any", "join by SST", durationText(mean(secs)), rng, durationText(pred), errorText(e)})
		if math.Abs(e) > maxValidationError {
			missed = append(missed, fmt.Sprintf("join by SST (%s)", errorText(e)))
			if len(secs) > 1 && pred >= slices.Min(secs) && pred <= slices.Max(secs) {
				inNoise = append(inNoise, "join by SST")
			}
		}
	}
	s.Notes = []string{fmt.Sprintf("%s; each phase of the restores validated is predicted from the rates of the others at its own size, write rate (%s/s against %s/s) and redo its backups started with (%s against %s), as a projection would be given them; error = predicted / measured − 1; its repetitions: the validated restores' range, the noise a miss is to be read against.",
		apart, bytesText(rl.WriteRate), bytesText(rs.WriteRate), bytesText(rl.StartRedo), bytesText(rs.StartRedo))}
	if !shared {
		return s, "validation: the two measurements share no --use-memory value", "validation: no --use-memory value measured at both sizes"
	}
	if len(missed) > 0 {
		m := fmt.Sprintf("the validation missed by more than %.0f%%: %s; the projection of those phases is not to be trusted at a larger scale", 100*maxValidationError, strings.Join(missed, ", "))
		if len(inNoise) > 0 {
			m += fmt.Sprintf(" (of them, %s fell within the validated restores' own repetitions: there the measurement's noise is as large as the miss)", strings.Join(inNoise, ", "))
		}
		return s, m, fmt.Sprintf("validated from %s to %s: %s", fromSize, bytesText(rl.DataBytes), m)
	}
	return s, "", fmt.Sprintf("validated from %s to %s: every phase predicted within %.0f%% (MTTR within %.0f%%)", fromSize, bytesText(rl.DataBytes), 100*maxValidationError, 100*worst)
}

// sstMeans are the data size and write rate of f's restores that joined
// by SST, and their SST joins' seconds.
func sstMeans(f restorePhases) (size, write float64, secs []float64) {
	var written, writtenS float64
	for _, r := range f.restores() {
		if r.SSTSeconds <= 0 || r.SSTBytes <= 0 {
			continue
		}
		size += float64(r.BackupBytes)
		written, writtenS = written+float64(r.WrittenBytes), writtenS+r.WrittenSeconds
		secs = append(secs, r.SSTSeconds)
	}
	if len(secs) == 0 {
		return 0, 0, nil
	}
	if writtenS == 0 {
		// No serving node's redo measured: the write rate of them all.
		return size / float64(len(secs)), ratesOf(f).WriteRate, secs
	}
	return size / float64(len(secs)), ratio(written, writtenS), secs
}

func applyOf(r Rates, mem string) (ApplyRate, bool) {
	for _, a := range r.Apply {
		if a.UseMemory == mem {
			return a, true
		}
	}
	return ApplyRate{}, false
}

// phaseMeans are a --use-memory value's restores, averaged.
type phaseMeans struct{ size, write, startRedo, backup, prepare, copy, start, join float64 }

func (m phaseMeans) total() float64 { return m.backup + m.prepare + m.copy + m.start + m.join }

func meanPhases(f restorePhases, mem string) phaseMeans {
	var m phaseMeans
	var written, writtenS float64
	n := 0.0
	for _, r := range f.Restores {
		if r.UseMemory != mem {
			continue
		}
		n++
		m.size += float64(r.BackupBytes)
		if r.WrittenSeconds > 0 {
			written, writtenS = written+float64(r.WrittenBytes), writtenS+r.WrittenSeconds
		} else {
			written, writtenS = written+float64(r.RedoBytes), writtenS+r.BackupSeconds
		}
		m.startRedo += r.startRedo()
		m.backup += r.BackupSeconds
		m.prepare += r.PrepareSeconds
		m.copy += r.CopySeconds
		m.start += r.StartSeconds
		m.join += r.JoinSeconds
	}
	if n == 0 {
		return m
	}
	m.write = ratio(written, writtenS)
	m.size, m.startRedo, m.backup, m.prepare, m.copy, m.start, m.join = m.size/n, m.startRedo/n, m.backup/n, m.prepare/n, m.copy/n, m.start/n, m.join/n
	return m
}

// phaseValues are a --use-memory value's restores' phases, each phase's
// values in the order of validation's rows (backup, prepare, copy, start,
// join, MTTR).
func phaseValues(f restorePhases, mem string) [6][]float64 {
	var v [6][]float64
	for _, r := range f.Restores {
		if r.UseMemory != mem {
			continue
		}
		for i, x := range []float64{r.BackupSeconds, r.PrepareSeconds, r.CopySeconds, r.StartSeconds, r.JoinSeconds,
			r.BackupSeconds + r.PrepareSeconds + r.CopySeconds + r.StartSeconds + r.JoinSeconds} {
			v[i] = append(v[i], x)
		}
	}
	return v
}

// relError is predicted / measured − 1; 0 when both are 0, +Inf when
// only the measure is.
func relError(pred, meas float64) float64 {
	switch {
	case meas > 0:
		return pred/meas - 1
	case pred == 0:
		return 0
	}
	return math.Inf(1)
}

func errorText(e float64) string {
	if math.IsInf(e, 0) {
		return "n/a (measured 0)"
	}
	return fmt.Sprintf("%+.0f%%", 100*e)
}
