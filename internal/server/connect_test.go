package server

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server/sandbox"
	"github.com/joinbench/joinbench/internal/sqllex"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

// TestConnectDSNCreatesDatabase points --dsn at the test server with a
// database that does not exist yet: Connect refuses it, unless asked to
// create it.
func TestConnectDSNCreatesDatabase(t *testing.T) {
	home(t, "")
	dsn := testdb.Fresh(t, "target_connect")
	cfg, _ := mysql.ParseDSN(dsn)
	cfg.DBName = cfg.DBName + "_new"
	t.Cleanup(func() {
		c := *cfg
		c.DBName = ""
		if db, err := sql.Open("mysql", c.FormatDSN()); err == nil {
			db.Exec("DROP DATABASE IF EXISTS " + sqllex.QuoteIdent(cfg.DBName))
			db.Close()
		}
	})
	_, err := Connect(context.Background(), Options{DSNs: []string{cfg.FormatDSN(), dsn}}, SandboxOptions{}, nil)
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "--create-database") {
		t.Fatalf("missing database without CreateDatabase: %v, want a usage error naming --create-database", err)
	}
	var log strings.Builder
	tg, err := Connect(context.Background(), Options{DSNs: []string{cfg.FormatDSN(), dsn}, CreateDatabase: true}, SandboxOptions{}, &log)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if len(tg.Endpoints) != 2 || tg.Sandbox != nil || !strings.Contains(log.String(), "created database "+cfg.DBName) {
		t.Errorf("target %+v, log %q", tg, log.String())
	}
}

func TestConnectUnreachable(t *testing.T) {
	home(t, "")
	_, err := Connect(context.Background(), Options{Host: "127.0.0.1", Port: 1, Password: "hunter2"}, SandboxOptions{}, nil)
	if err == nil || !usage.Is(err) || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("got %v, want a usage error naming the endpoint and not the password", err)
	}
}

func TestConnectNamedSandboxMissing(t *testing.T) {
	home(t, "")
	_, err := Connect(context.Background(), Options{}, SandboxOptions{Name: "nope", Dir: t.TempDir()}, nil)
	if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), "sandbox start --name nope") {
		t.Errorf("got %v", err)
	}
	_, err = Connect(context.Background(), Options{Host: "h"}, SandboxOptions{Name: "x"}, nil)
	if err == nil || !usage.Is(err) {
		t.Errorf("--sandbox with --host: %v", err)
	}
}

// TestConnectThrowaway: no server named, so a sandbox is started and Close
// stops it and removes its files.
func TestConnectThrowaway(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server; skipped with -short")
	}
	if _, err := sandbox.FindBinary(context.Background(), ""); err != nil {
		testdb.Skipf(t, "%v", err)
	}
	home(t, "")
	tg, err := Connect(context.Background(), Options{Database: "jbt"}, SandboxOptions{BufferPoolSize: "64M"}, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if tg.Sandbox == nil || tg.Database != "jbt" || len(tg.Endpoints) != 1 {
		t.Fatalf("target %+v", tg)
	}
	db, err := sql.Open("mysql", tg.Endpoints[0].DSN)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := db.QueryRow("SELECT DATABASE()").Scan(&got); err != nil || got != "jbt" {
		t.Errorf("DATABASE() = %q, %v", got, err)
	}
	db.Close()
	if err := tg.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tg.Sandbox.DataDir); !os.IsNotExist(err) {
		t.Errorf("data directory still there after Close: %v", err)
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
