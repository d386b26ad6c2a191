package replay_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/server"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
	"github.com/joinbench/joinbench/replay"
	"github.com/joinbench/joinbench/results"
)

// TestThreadsBeyondMaxConnections: more threads than the server takes
// connections is one clear usage error when the endpoints are opened,
// before any worker, thread or table exists.
func TestThreadsBeyondMaxConnections(t *testing.T) {
	dsn := testdb.Fresh(t, "replay_limits")
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var limit int
	if err := db.QueryRow("SELECT @@max_connections").Scan(&limit); err != nil {
		t.Fatal(err)
	}
	if limit >= replay.MaxThreads {
		t.Skipf("max_connections %d: no thread count between it and the tool's own bound", limit)
	}
	s, err := replay.NewSession(replay.Options{RunOptions: results.RunOptions{
		Scenario: []string{"simple_inner_pk"}, Threads: limit + 1, Tables: 1, TableSize: 100, TableName: "main",
		Distribution: "uniform", IgnoreErrors: "none", PsMode: results.PsAuto, ExecPath: results.ExecDirect, Explain: results.ExplainOff}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cfg, _ := mysql.ParseDSN(dsn)
	err = s.Open(context.Background(), []server.Endpoint{server.NewEndpoint("test", cfg)}, nil)
	if !usage.Is(err) || !strings.Contains(err.Error(), "max_connections") || !strings.Contains(err.Error(), "--threads") {
		t.Fatalf("open with %d threads: %v; want a usage error naming --threads and max_connections", limit+1, err)
	}
}
