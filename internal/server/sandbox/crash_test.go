package sandbox

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A single server killed comes back on its data (InnoDB's own crash
// recovery), writable once it answers; its new process id is saved.
func TestCrashSingleServer(t *testing.T) {
	b := serverBinary(t)
	ctx := context.Background()
	root := t.TempDir()
	noStrayServers(t, root)
	s, _, err := StartNamed(ctx, root, "one", Config{Binary: b, Database: "jb", BufferPoolSize: "64M", Log: testLog{t}})
	if err != nil {
		t.Fatal(err)
	}
	named, err := Open(root, "one")
	if err != nil {
		t.Fatal(err)
	}
	old := s.PID
	recs, err := named.Crash(ctx, named.Servers[0], 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Transfer != "" || !recs[0].Synced.IsZero() {
		t.Fatalf("%+v", recs)
	}
	checkOrderSingle(t, recs[0])
	again, err := Lookup(root, "one")
	if err != nil || again.PID == old || !again.Running() {
		t.Errorf("state after the crash: pid %d (was %d), running %v, %v", again.PID, old, again.Running(), err)
	}
	if err := again.Stop(ctx); err != nil {
		t.Fatal(err)
	}
}

func checkOrderSingle(t *testing.T, r Recovery) {
	t.Helper()
	if r.Killed.IsZero() || !r.Started.After(r.Killed) || r.Writable.Before(r.Started) {
		t.Errorf("killed %v, started %v, writable %v: not in that order", r.Killed, r.Started, r.Writable)
	}
}

// transferLines are the lines of a log that speak of state transfers.
func transferLines(log string) string {
	var out []string
	for _, l := range strings.Split(readFrom(log, 0), "\n") {
		if strings.Contains(l, "IST") || strings.Contains(l, "SST") || strings.Contains(l, "State transfer") || strings.Contains(l, "gcache") {
			out = append(out, l)
		}
	}
	if len(out) > 60 {
		out = out[len(out)-60:]
	}
	return strings.Join(out, "\n")
}

// How a joiner came back, from the lines its log has: the mariabackup
// script's own words for IST and SST, none when no transfer was needed.
func TestTransferOf(t *testing.T) {
	ist := `[Note] WSREP: State transfer required:
WSREP_SST: [INFO] 'xtrabackup_ist' received from donor: Running IST (20261203 14:17:34.270)
WSREP_SST: [INFO] mariabackup IST completed on joiner (20261203 14:17:34.297)
[Note] WSREP: SST received
[Note] WSREP: SST succeeded for position 2849bac7-ef24-11f1-91d0-8b20223d83f2:8
[Note] WSREP: Receiving IST: 3 writesets, seqnos 9-11`
	sst := `[Note] WSREP: State transfer required:
WSREP_SST: [INFO] Proceeding with SST (20261203 14:16:59.913)
WSREP_SST: [INFO] mariabackup SST completed on joiner (20261203 14:17:11.408)
[Note] WSREP: SST received
[Note] WSREP: Receiving IST... 100.0% (5/5 events) complete.`
	none := `[Note] WSREP: Shifting OPEN -> PRIMARY (TO: 11)
[Note] WSREP: Shifting JOINED -> SYNCED (TO: 11)`
	for log, want := range map[string]string{ist: TransferIST, sst: TransferSST, none: TransferNone} {
		if got := transferOf(log); got != want {
			t.Errorf("%s\nread as %s, want %s", log, got, want)
		}
	}
}

// The bounds and size of a joiner's state transfer, read from its log:
// the script's start, then the full copy's end or the incremental one's.
func TestTransferFactsOf(t *testing.T) {
	ist := `WSREP_SST: [INFO] mariabackup SST started on joiner (20261203 16:59:23.766)
2026-12-03 16:59:28 0 [Note] WSREP: Member 2.0 (node3) requested state transfer from '*any*'. Selected 1.0 (node2)(SYNCED) as donor.
WSREP_SST: [INFO] mariabackup IST completed on joiner (20261203 16:59:32.064)
2026-12-03 16:59:33 2 [Note] WSREP: Receiving IST: 5 writesets, seqnos 4424-4428
2026-12-03 16:59:33 2 [Note] WSREP: IST received: bb49a937-ef3a-11f1-a184-9ff05da2e6e1:4428`
	f := transferFactsOf(ist)
	at := func(s string) time.Time { return parseLogTime("2006-01-02 15:04:05.000", s) }
	if !f.start.Equal(at("2026-12-03 16:59:23.766")) || !f.end.Equal(at("2026-12-03 16:59:33.000")) || f.writesets != 5 {
		t.Errorf("IST: %+v", f)
	}
	sst := `WSREP_SST: [INFO] mariabackup SST started on joiner (20261203 16:58:35.796)
WSREP_SST: [INFO] mariabackup SST completed on joiner (20261203 16:58:51.470)
2026-12-03 16:58:51 3 [Note] WSREP: SST received`
	f = transferFactsOf(sst)
	if !f.start.Equal(at("2026-12-03 16:58:35.796")) || !f.end.Equal(at("2026-12-03 16:58:51.470")) || f.writesets != 0 {
		t.Errorf("SST: %+v", f)
	}
	if f := transferFactsOf("nothing"); !f.start.IsZero() || !f.end.IsZero() {
		t.Errorf("no transfer: %+v", f)
	}
}

// noStrayServers makes sure that when the test ends, however it ends, no
// server it started under dir is left: they are stopped (killed if need
// be), and any found is a failure.
func noStrayServers(t *testing.T, dir string) {
	t.Cleanup(func() {
		if list, err := List(dir); err == nil {
			for _, c := range list {
				_ = c.Stop(context.Background())
			}
		}
		for _, pid := range serversUnder(dir) {
			t.Errorf("server pid %d under %s still running after the test: killed", pid, dir)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// serversUnder lists the processes whose command line names a data
// directory under dir.
func serversUnder(dir string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if bytes.Contains(cmdline, []byte("--datadir="+dir+"/")) && processAlive(pid, string(datadirOf(cmdline))) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func datadirOf(cmdline []byte) []byte {
	for _, a := range bytes.Split(cmdline, []byte{0}) {
		if v, ok := bytes.CutPrefix(a, []byte("--datadir=")); ok {
			return v
		}
	}
	return nil
}
