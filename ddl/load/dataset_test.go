package load

import (
	"context"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestPrepareRecordsItsDataset: a prepare records what it loaded (its
// options, the rows of each table) and a run reads it with a sample of
// the rows; another seed gives another sample, a prepare refused before
// it changed anything keeps the record, cleanup drops it.
func TestPrepareRecordsItsDataset(t *testing.T) {
	ctx := context.Background()
	db := openDSN(t, testdb.Fresh(t, "ddl_dataset"))
	if d, err := ReadDataset(ctx, db); d != nil || err != nil {
		t.Fatalf("before any prepare: %+v, %v", d, err)
	}
	o := PrepareOptions{Schema: ddl.SchemaOptions{Tables: 2}, Gen: ddl.GenOptions{Seed: 3, TableSize: 300}, NoAnalyze: true}
	if _, err := Prepare(ctx, db, o); err != nil {
		t.Fatal(err)
	}
	d, err := ReadDataset(ctx, db)
	if err != nil || d == nil {
		t.Fatalf("after prepare: %+v, %v", d, err)
	}
	if d.Seed != 3 || d.TableSize != 300 || d.Tables != 2 || d.TableName != "main" || d.Distribution != "uniform" ||
		d.Schema == "" || d.DatasetKey.Rows == "" || len(d.Rows) != 7 || d.Rows["main2"] != 300 || d.Rows["level5"] != 300 ||
		len(d.Sample) != 64 || d.Recorded.IsZero() {
		t.Fatalf("dataset %+v", d)
	}
	again, _ := ReadDataset(ctx, db)
	if again.Sample != d.Sample {
		t.Errorf("the sample of the same rows changed: %s, then %s", d.Sample, again.Sample)
	}

	// Without --recreate the tables exist: refused, nothing changed.
	if _, err := Prepare(ctx, db, o); err == nil {
		t.Fatal("a second prepare without Recreate loaded")
	}
	if kept, _ := ReadDataset(ctx, db); kept == nil || kept.Sample != d.Sample {
		t.Errorf("a refused prepare changed the record: %+v", kept)
	}

	o.Gen.Seed, o.Recreate = 7, true
	if _, err := Prepare(ctx, db, o); err != nil {
		t.Fatal(err)
	}
	other, err := ReadDataset(ctx, db)
	if err != nil || other == nil || other.Seed != 7 || other.Sample == d.Sample || other.DatasetKey.Rows == d.DatasetKey.Rows {
		t.Errorf("another seed: %+v, %v", other, err)
	}

	if _, err := Cleanup(ctx, db, o.Schema); err != nil {
		t.Fatal(err)
	}
	if d, err := ReadDataset(ctx, db); d != nil || err != nil {
		t.Errorf("after cleanup: %+v, %v", d, err)
	}
}

// TestInterruptedPrepareForgetsItsDataset: a prepare that stops before
// its tables are complete leaves no record: the data are not what any
// record would say.
func TestInterruptedPrepareForgetsItsDataset(t *testing.T) {
	db := openDSN(t, testdb.Fresh(t, "ddl_dataset_cut"))
	o := baseOpts()
	o.Threads, o.ChunkSize = 1, 200
	if _, err := Prepare(context.Background(), db, o); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Recreate, o.Progress = true, &cancelAfter{n: 400, cancel: cancel}
	if _, err := Prepare(ctx, db, o); err == nil {
		t.Fatal("not interrupted")
	}
	if d, err := ReadDataset(context.Background(), db); d != nil || err != nil {
		t.Errorf("after an interrupted prepare: %+v, %v", d, err)
	}
}
