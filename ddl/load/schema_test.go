package load

import (
	"context"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/testdb"
)

func TestSchemaFromServerMatchesBuiltin(t *testing.T) {
	dsn := testdb.Fresh(t, "ddl_schema")
	db := openDSN(t, dsn)
	ctx := context.Background()
	opts := ddl.SchemaOptions{Tables: 2}
	stmts, err := ddl.CreateStatements(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	cfg, _ := mysql.ParseDSN(dsn)
	got, err := SchemaFromServer(ctx, db, cfg.DBName)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ddl.BuiltinSchema(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tables()) != len(want.Tables()) {
		t.Fatalf("server has %d tables, want %d", len(got.Tables()), len(want.Tables()))
	}
	for _, wt := range want.Tables() {
		gt := got.Table(wt.Name)
		if gt == nil {
			t.Fatalf("table %s missing on the server", wt.Name)
		}
		if !strings.EqualFold(gt.Engine, wt.Engine) {
			t.Errorf("%s engine %s, want %s", wt.Name, gt.Engine, wt.Engine)
		}
		if len(gt.Columns) != len(wt.Columns) {
			t.Fatalf("%s: %d columns, want %d", wt.Name, len(gt.Columns), len(wt.Columns))
		}
		for i, wc := range wt.Columns {
			gc := gt.Columns[i]
			if gc.Name != wc.Name || gc.Type.String() != wc.Type.String() || gc.NotNull != wc.NotNull || gc.AutoIncrement != wc.AutoIncrement || gc.HasDefault != wc.HasDefault {
				t.Errorf("%s column %d: server %s %s notnull=%v ai=%v def=%v(%s), want %s %s notnull=%v ai=%v def=%v",
					wt.Name, i, gc.Name, gc.Type, gc.NotNull, gc.AutoIncrement, gc.HasDefault, gc.Default, wc.Name, wc.Type, wc.NotNull, wc.AutoIncrement, wc.HasDefault)
			}
		}
		if len(gt.Indexes) != len(wt.Indexes) {
			t.Fatalf("%s: %d indexes, want %d", wt.Name, len(gt.Indexes), len(wt.Indexes))
		}
		for _, wi := range wt.Indexes {
			gi := gt.Index(wi.Name)
			if gi == nil || strings.Join(gi.Columns, ",") != strings.Join(wi.Columns, ",") || gi.Unique != wi.Unique || gi.Primary != wi.Primary {
				t.Errorf("%s index %s: server %+v, want %+v", wt.Name, wi.Name, gi, wi)
			}
		}
		if gt.Indexes[0].Name != "PRIMARY" {
			t.Errorf("%s: first index %s, want PRIMARY", wt.Name, gt.Indexes[0].Name)
		}
	}
}
