package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

// A list of joins is ist, sst or both, each once; anything else is one
// usage line naming --join, refused before a backup is taken.
func TestCheckJoins(t *testing.T) {
	for _, ok := range [][]string{nil, {"ist"}, {"sst"}, {"ist", "sst"}, {"sst", "ist"}} {
		if err := CheckJoins(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for in, want := range map[string]string{"rsync": `--join "rsync"`, "IST": `--join "IST"`, "": `--join ""`, "ist,ist": "--join ist: given twice"} {
		err := CheckJoins(strings.Split(in, ","))
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one usage line with %q", in, err, want)
		}
	}
	c := restoreCluster(t, fakeBackupTool(t, "--prepare"))
	if _, err := c.RestoreNode(context.Background(), "node2", RestoreOptions{Joins: []string{"full"}}); err == nil || !usage.Is(err) {
		t.Errorf("a bad join: %v, want a usage error", err)
	}
}

// ist (or nothing) starts on the backup's position, sst alone with it
// cleared; both: on the position, then a rejoin by SST.
func TestJoinPlan(t *testing.T) {
	for _, c := range []struct {
		joins              []string
		onPosition, rejoin bool
	}{{nil, true, false}, {[]string{"ist"}, true, false}, {[]string{"sst"}, false, false}, {[]string{"ist", "sst"}, true, true}, {[]string{"sst", "ist"}, true, true}} {
		if on, re := JoinPlan(c.joins); on != c.onPosition || re != c.rejoin {
			t.Errorf("%q: on the position %v, rejoin %v; want %v, %v", c.joins, on, re, c.onPosition, c.rejoin)
		}
	}
}

// The SST join of a restore is its rejoin when it made one, else its own
// join when that was an SST; its IST join is its own when it was not.
func TestRestoreJoins(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ist := Recovery{Transfer: TransferIST, Started: t0, Synced: t0.Add(5 * time.Second)}
	sst := Recovery{Transfer: TransferSST, Started: t0.Add(10 * time.Second), TransferStart: t0.Add(12 * time.Second), TransferEnd: t0.Add(30 * time.Second),
		Synced: t0.Add(33 * time.Second), TransferBytes: 900}
	r := Restore{Join: ist, Rejoin: sst}
	if got, ok := r.SSTJoin(); !ok || got != sst {
		t.Errorf("ist,sst: SST join %+v, %v", got, ok)
	}
	if got, ok := r.ISTJoin(); !ok || got != ist {
		t.Errorf("ist,sst: IST join %+v, %v", got, ok)
	}
	if sst.JoinSeconds() != 23 || sst.TransferSeconds() != 18 {
		t.Errorf("SST join %v s, transfer %v s; want 23 and 18", sst.JoinSeconds(), sst.TransferSeconds())
	}
	r = Restore{Join: sst}
	if _, ok := r.ISTJoin(); ok {
		t.Error("a join by SST taken for an IST")
	}
	if got, ok := r.SSTJoin(); !ok || got != sst {
		t.Errorf("sst: SST join %+v, %v", got, ok)
	}
	r = Restore{Join: ist}
	if _, ok := r.SSTJoin(); ok {
		t.Error("ist only: an SST join found")
	}
	if (Recovery{}).JoinSeconds() != 0 || (Recovery{}).TransferSeconds() != 0 {
		t.Error("no join: seconds")
	}
}

// What a full copy left is the data sent: not the files the server makes
// at its start whatever it was sent.
func TestTransferredBytes(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{"ibdata1": 100, "jb/main1.ibd": 50, "undo001": 7, "galera.cache": 1000, "ib_logfile0": 2000, "ibtmp1": 300} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := transferredBytes(dir); got != 157 {
		t.Errorf("transferred %d bytes, want 157", got)
	}
}

// A cleared position is the zero state: no uuid the provider knows.
func TestClearPosition(t *testing.T) {
	dir := t.TempDir()
	if err := saveGrastate(dir, "bb49a937-ef3a-11f1-a184-9ff05da2e6e1:10"); err != nil {
		t.Fatal(err)
	}
	if err := clearPosition(dir); err != nil {
		t.Fatal(err)
	}
	g, ok, err := readGrastate(dir)
	if err != nil || !ok || g.UUID != zeroUUID || g.Seqno != -1 || g.SafeToBootstrap {
		t.Errorf("cleared: %+v, %v, %v", g, ok, err)
	}
}

// RejoinBySST refuses a node it cannot rejoin before it stops anything.
func TestRejoinBySSTRefuses(t *testing.T) {
	c := restoreCluster(t, fakeBackupTool(t, "--prepare"))
	for name, want := range map[string]string{"node9": `no node "node9"`} {
		if _, err := c.RejoinBySST(context.Background(), name); err == nil || !usage.Is(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	c.Nodes = c.Nodes[1:]
	if _, err := c.RejoinBySST(context.Background(), "node2"); err == nil || !strings.Contains(err.Error(), "no running node other than node2") {
		t.Errorf("no donor: %v", err)
	}
}

// The joiner's log names its donor; the donor's log bounds the backup it
// streamed after its fixed wait: the first stream from about the
// transfer's start on, not an earlier one.
func TestDonorStream(t *testing.T) {
	joiner := "2026-12-07 22:55:59 0 [Note] WSREP: Member 0.0 (node3) requested state transfer from '*any*'. Selected 2.0 (node2)(SYNCED) as donor.\n" +
		"2026-12-07 22:56:57 0 [Note] WSREP: Member 0.0 (node3) requested state transfer from '*any*'. Selected 1.0 (node1)(SYNCED) as donor.\n" +
		"2026-12-07 22:56:58 0 [Note] WSREP: Member 1.0 (node2) requested state transfer from '*any*'. Selected 0.0 (node3)(SYNCED) as donor.\n"
	if got := donorOf(joiner, "node3"); got != "node1" {
		t.Errorf("donor of node3: %q, want node1 (its last)", got)
	}
	if got := donorOf("no such line", "node3"); got != "" {
		t.Errorf("no donor named: %q", got)
	}
	donor := "WSREP_SST: [INFO] Sleeping before data transfer for SST (20261207 22:56:06.846)\n" +
		"WSREP_SST: [INFO] Streaming the backup to joiner at 127.0.0.1:42759 (20261207 22:56:16.903)\n" +
		"WSREP_SST: [INFO] mariabackup SST completed on donor (20261207 22:56:27.408)\n" +
		"WSREP_SST: [INFO] mariabackup SST started on donor (20261207 22:56:57.885)\n" +
		"WSREP_SST: [INFO] Sleeping before data transfer for SST (20261207 22:56:58.501)\n" +
		"WSREP_SST: [INFO] Streaming the backup to joiner at 127.0.0.1:42759 (20261207 22:57:08.513)\n" +
		"WSREP_SST: [INFO] Total time on donor: 0 seconds (20261207 22:57:17.972)\n" +
		"WSREP_SST: [INFO] mariabackup SST completed on donor (20261207 22:57:17.988)\n"
	from := parseLogTime("20060102 15:04:05.000", "20261207 22:56:56.835")
	start, end := streamOf(donor, from)
	want := parseLogTime("20060102 15:04:05.000", "20261207 22:57:08.513")
	if !start.Equal(want) || end.Sub(start) != 9475*time.Millisecond {
		t.Errorf("stream %v to %v, want from %v for 9.475 s", start, end, want)
	}
	if rec := (Recovery{StreamStart: start, StreamEnd: end}); rec.StreamSeconds() != 9.475 {
		t.Errorf("stream seconds %v", rec.StreamSeconds())
	}
	// A stream not ended yet in the log, or none since: nothing.
	if s, e := streamOf(donor[:strings.LastIndex(donor, "WSREP_SST: [INFO] mariabackup SST completed")], from); !s.IsZero() || !e.IsZero() {
		t.Errorf("an unfinished stream: %v, %v", s, e)
	}
	if s, _ := streamOf(donor, from.Add(time.Hour)); !s.IsZero() {
		t.Errorf("no stream since: %v", s)
	}
	// Through the cluster: the donor's own log is read.
	dir := t.TempDir()
	c := &Cluster{}
	for _, name := range []string{"node1", "node2", "node3"} {
		n := &Node{Server: Server{Name: name, ErrorLog: filepath.Join(dir, name+".log")}}
		c.Nodes = append(c.Nodes, n)
	}
	if err := os.WriteFile(c.Nodes[0].ErrorLog, []byte(donor), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, e := c.donorStream("node3", joiner, from); !s.Equal(start) || !e.Equal(end) {
		t.Errorf("donorStream %v, %v", s, e)
	}
}
