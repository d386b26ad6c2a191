package server

import (
	"context"
	"database/sql"
	"fmt"
	execpkg "os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/joinbench/joinbench/internal/ledger"
	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

// ledgerServer is a fresh database on the test server, its endpoint and a
// pool on it.
func ledgerServer(t *testing.T, name string) (string, Endpoint, *sql.DB) {
	t.Helper()
	home(t, "")
	dsn := testdb.Fresh(t, name)
	r, err := (&Options{DSNs: []string{dsn}}).Resolve()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return dsn, r.Endpoints[0], db
}

// deadOwner is an owner of this machine that is gone: this process's pid
// with another start time, as when the kernel gave a dead joinbench's pid
// to another process.
func deadOwner() ledger.Owner {
	o := ledger.Self()
	o.Start++
	return o
}

// slowLaunchTime is a global variable no test reads: the tests change it
// on the shared server and set it back.
const slowLaunchTime = "slow_launch_time"

func globalValue(t *testing.T, db *sql.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRow("SELECT @@GLOBAL." + slowLaunchTime).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// changeGlobal sets the global as a lesson does, noting it first with
// owner, and returns its value before.
func changeGlobal(t *testing.T, ep Endpoint, db *sql.DB, owner ledger.Owner) (ledger.Entry, int) {
	t.Helper()
	before := globalValue(t, db)
	t.Cleanup(func() { db.Exec(fmt.Sprintf("SET GLOBAL %s = %d", slowLaunchTime, before)) })
	if _, err := ep.Ledger().Add(ledger.Entry{Kind: sandbox.ChangeGlobal, What: slowLaunchTime + " changed by a test",
		Undo: map[string]string{"name": slowLaunchTime, "value": strconv.Itoa(before)}, Owner: owner}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("SET GLOBAL %s = %d", slowLaunchTime, before+7)); err != nil {
		t.Fatal(err)
	}
	es, err := ep.TableLedger().Entries()
	if err != nil {
		t.Fatal(err)
	}
	return es[len(es)-1], before
}

// onlineSchemaChangeLeft makes what a killed pt-online-schema-change of
// table big leaves (its three triggers and its copy), noted with owner;
// pgid is its process group, 0 for one that is gone.
func onlineSchemaChangeLeft(t *testing.T, ep Endpoint, db *sql.DB, owner ledger.Owner, pgid int) {
	t.Helper()
	var database string
	if err := db.QueryRow("SELECT DATABASE()").Scan(&database); err != nil {
		t.Fatal(err)
	}
	undo := map[string]string{"database": database, "table": "big", "pgid": strconv.Itoa(pgid)}
	if pgid > 0 {
		o, err := ledger.OwnerOf(pgid)
		if err != nil {
			t.Fatal(err)
		}
		undo["start"] = strconv.FormatUint(o.Start, 10)
	}
	if _, err := ep.Ledger().Add(ledger.Entry{Kind: sandbox.ChangeOnlineSchemaChange, What: "pt-online-schema-change on big", Undo: undo, Owner: owner}); err != nil {
		t.Fatal(err)
	}
	stmts := []string{"CREATE TABLE big (id INT PRIMARY KEY, v INT)", "CREATE TABLE _big_new (id INT PRIMARY KEY, v INT)"}
	for _, op := range []string{"ins", "upd", "del"} {
		event := map[string]string{"ins": "INSERT", "upd": "UPDATE", "del": "DELETE"}[op]
		stmts = append(stmts, fmt.Sprintf("CREATE TRIGGER pt_osc_%s_big_%s AFTER %s ON big FOR EACH ROW SET @x = 1", database, op, event))
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func triggersAndCopies(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	err := db.QueryRow(`SELECT (SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE())
		+ (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE '\_big\_%')`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// What a killed joinbench of this machine left on a server named by --dsn
// (a global variable changed, a pt-osc's triggers and copy, the tool
// itself still running) is undone by the next Connect; a running
// joinbench's entry is left alone.
func TestConnectUndoesWhatADeadJoinbenchLeft(t *testing.T) {
	dsn, ep, db := ledgerServer(t, "repair_connect")
	_, before := changeGlobal(t, ep, db, deadOwner())
	helper := execpkg.Command("sleep", "60")
	helper.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	helperDone := make(chan struct{})
	go func() { _ = helper.Wait(); close(helperDone) }()
	t.Cleanup(func() { _ = helper.Process.Kill() })
	onlineSchemaChangeLeft(t, ep, db, deadOwner(), helper.Process.Pid)
	if _, err := ep.Ledger().Add(ledger.Entry{Kind: sandbox.ChangeGlobal, What: "a running joinbench's",
		Undo: map[string]string{"name": slowLaunchTime, "value": "1"}}); err != nil {
		t.Fatal(err)
	}
	if n := triggersAndCopies(t, db); n != 4 {
		t.Fatalf("%d triggers and copies made, want 4", n)
	}
	tg, err := Connect(context.Background(), Options{DSNs: []string{dsn}}, SandboxOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tg.Close()
	if v := globalValue(t, db); v != before {
		t.Errorf("%s = %d after Connect, want %d as before", slowLaunchTime, v, before)
	}
	if n := triggersAndCopies(t, db); n != 0 {
		t.Errorf("%d triggers and copies after Connect", n)
	}
	// Stopped, it ends by a signal; left alone, it would end by itself
	// a minute later, and well.
	<-helperDone
	if ws, ok := helper.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Errorf("the schema change tool left running (pid %d) was not stopped: %v", helper.Process.Pid, helper.ProcessState)
	}
	es, err := ep.TableLedger().Entries()
	if err != nil || len(es) != 1 || es[0].What != "a running joinbench's" {
		t.Errorf("entries after Connect: %+v %v, want the running one's only", es, err)
	}
}

// Two repairs starting together undo each leftover once: the second
// waits for the first, then finds nothing left. The test holds the lock
// until both wait, both having seen the leftovers before it.
func TestRepairServerTwiceAtOnceUndoesOnce(t *testing.T) {
	_, ep, db := ledgerServer(t, "repair_lock")
	changeGlobal(t, ep, db, deadOwner())
	onlineSchemaChangeLeft(t, ep, db, deadOwner(), 0)
	unlock, err := ep.TableLedger().Lock(context.Background(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	waiting := make(chan struct{}, 2)
	undone := make([]int, 2)
	logs := make([]*signalLog, 2)
	for i := range 2 {
		logs[i] = &signalLog{waiting: waiting}
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := RepairServer(context.Background(), ep, logs[i], nil)
			if err != nil {
				t.Error(err)
			}
			undone[i] = n
		}()
	}
	<-waiting
	<-waiting
	unlock()
	wg.Wait()
	if undone[0]+undone[1] != 2 || (undone[0] != 0 && undone[1] != 0) {
		t.Fatalf("undone %v, want both leftovers by one repair", undone)
	}
	all := logs[0].String() + logs[1].String()
	if strings.Count(all, "set back to") != 1 || strings.Count(all, "triggers and copy dropped") != 1 {
		t.Fatalf("logs:\n%s", all)
	}
}

// signalLog is a repair's log that signals when the repair waits for the
// lock.
type signalLog struct {
	mu      sync.Mutex
	b       strings.Builder
	waiting chan struct{}
}

func (l *signalLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if strings.Contains(string(p), "waiting up to") {
		l.waiting <- struct{}{}
	}
	return l.b.Write(p)
}

func (l *signalLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// An entry of a joinbench that ran on another machine is not undone, its
// process being out of sight: it is named with the command that undoes it,
// which does.
func TestRepairServerNamesAnotherMachinesEntry(t *testing.T) {
	_, ep, db := ledgerServer(t, "repair_elsewhere")
	elsewhere := ledger.Owner{PID: 4242, Start: 1, Host: ledger.ThisHost() + "-other"}
	e, before := changeGlobal(t, ep, db, elsewhere)
	var log strings.Builder
	n, err := RepairServer(context.Background(), ep, &log, nil)
	if err != nil || n != 0 {
		t.Fatalf("repair: %d undone, %v", n, err)
	}
	if v := globalValue(t, db); v != before+7 {
		t.Fatalf("%s = %d: another machine's change was undone", slowLaunchTime, v)
	}
	want := RepairCommand(ep, "--force", e.ID)
	if !strings.Contains(log.String(), "pid 4242") || !strings.Contains(log.String(), e.Owner.Host) || !strings.Contains(log.String(), want) {
		t.Fatalf("log %q, want the owner and %q", log.String(), want)
	}
	n, err = RepairServer(context.Background(), ep, &log, []string{e.ID})
	if err != nil || n != 1 {
		t.Fatalf("repair --force: %d undone, %v", n, err)
	}
	if v := globalValue(t, db); v != before {
		t.Fatalf("%s = %d after --force, want %d", slowLaunchTime, v, before)
	}
	if _, err := RepairServer(context.Background(), ep, &log, []string{"no-such-entry"}); err == nil || !strings.Contains(err.Error(), "no-such-entry") {
		t.Fatalf("--force of no entry: %v", err)
	}
}

// What cannot be undone is refused as a user error (exit 2) naming the
// command to run, or the row to delete for a change joinbench cannot
// undo on such a server, and its entry is kept.
func TestRepairServerRefusesWithTheCommand(t *testing.T) {
	_, ep, _ := ledgerServer(t, "repair_refuse")
	gone := deadOwner()
	if _, err := ep.Ledger().Add(ledger.Entry{Kind: sandbox.ChangeGlobal, What: "a variable the server does not have",
		Undo: map[string]string{"name": "no_such_variable_jb", "value": "1"}, Owner: gone}); err != nil {
		t.Fatal(err)
	}
	_, err := RepairServer(context.Background(), ep, nil, nil)
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), RepairCommand(ep)) {
		t.Fatalf("repair of a change the server refuses to undo: %v, want a user error naming %q", err, RepairCommand(ep))
	}
	es, _ := ep.TableLedger().Entries()
	if len(es) != 1 {
		t.Fatalf("entries after a failed undo: %+v", es)
	}
	if err := ep.TableLedger().Remove(es[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := ep.Ledger().Add(ledger.Entry{Kind: sandbox.ChangeCgroup, What: "a cgroup limit", Owner: gone}); err != nil {
		t.Fatal(err)
	}
	_, err = RepairServer(context.Background(), ep, nil, nil)
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "DELETE FROM") {
		t.Fatalf("repair of a kind joinbench cannot undo here: %v, want a user error naming the row to delete", err)
	}
}
