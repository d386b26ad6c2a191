package server

import (
	"context"
	"database/sql"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

// TestConnectExistingCreatesNothing: the test server is reached as it is;
// a database it does not have is a user error, and is not created.
func TestConnectExistingCreatesNothing(t *testing.T) {
	home(t, "")
	dsn := testdb.Fresh(t, "target_existing")
	tg, err := ConnectExisting(context.Background(), Options{DSNs: []string{dsn}}, SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tg.Endpoints) != 1 || tg.Sandbox != nil {
		t.Errorf("target %+v", tg)
	}
	tg.Close()

	cfg, _ := mysql.ParseDSN(dsn)
	missing := cfg.DBName + "_none"
	cfg.DBName = missing
	_, err = ConnectExisting(context.Background(), Options{DSNs: []string{cfg.FormatDSN()}}, SandboxOptions{})
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "database "+missing+" does not exist") {
		t.Fatalf("missing database: %v, want a usage error naming it", err)
	}
	cfg.DBName = ""
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", missing).Scan(&n); err != nil || n != 0 {
		t.Errorf("database %s: %d found (%v); ConnectExisting must not create it", missing, n, err)
	}
}

// TestConnectExistingNeedsAServer: with no server named nothing is
// started; a sandbox that does not exist, or one named with a host too,
// is a user error.
func TestConnectExistingNeedsAServer(t *testing.T) {
	home(t, "")
	for _, tc := range []struct {
		o    Options
		sb   SandboxOptions
		want string
	}{
		{Options{}, SandboxOptions{}, "no server named"},
		{Options{}, SandboxOptions{Name: "nope", Dir: t.TempDir()}, "nope"},
		{Options{Host: "h"}, SandboxOptions{Name: "x"}, "--sandbox cannot be combined"},
	} {
		_, err := ConnectExisting(context.Background(), tc.o, tc.sb)
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v %+v: %v, want a usage error naming %q", tc.o, tc.sb, err, tc.want)
		}
	}
}

// TestConnectExistingTimesOut: a server that accepts the connection but
// never answers (as a stopped server process does: the kernel still
// accepts) is given up after the connect timeout, and one that refuses
// is a user error at once; neither names the password.
func TestConnectExistingTimesOut(t *testing.T) {
	home(t, "")
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close() // never accepted: the handshake never comes
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedAddr := refused.Addr().String()
	refused.Close()
	for _, addr := range []string{silent.Addr().String(), refusedAddr} {
		host, port, _ := net.SplitHostPort(addr)
		o := Options{Host: host, Password: "hunter2", ConnectTimeout: 200 * time.Millisecond}
		o.Port, _ = strconv.Atoi(port)
		done := make(chan error, 1)
		go func() {
			_, err := ConnectExisting(context.Background(), o, SandboxOptions{})
			done <- err
		}()
		select {
		case err := <-done:
			t.Logf("%s: %v", addr, err)
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), addr) || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("%s: %v, want a usage error naming the endpoint and not the password", addr, err)
			}
		case <-time.After(time.Minute): // liveness, not speed: without the timeout it never returns
			t.Fatalf("%s: still connecting after a minute", addr)
		}
	}
}
