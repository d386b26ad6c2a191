package load

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/joinbench/joinbench/internal/segment"
	"github.com/joinbench/joinbench/internal/testdb"
	"github.com/joinbench/joinbench/internal/usage"
)

// segmentsFinished reads row 0 of SegmentsTable: whether the prepare as
// a whole was finished.
func segmentsFinished(t *testing.T, db *sql.DB) bool {
	t.Helper()
	var fin sql.NullTime
	if err := db.QueryRow("SELECT finished FROM " + SegmentsTable + " WHERE segment = 0").Scan(&fin); err != nil {
		t.Fatal(err)
	}
	return fin.Valid
}

func checkLikeOneProcess(t *testing.T, db *sql.DB, want map[string]int64) {
	t.Helper()
	o := baseOpts()
	got := checksums(t, db, o.Schema.TableNames())
	for n, sum := range want {
		if got[n] != sum {
			t.Errorf("%s: checksum %d, one process gives %d", n, got[n], sum)
		}
	}
	s, err := SchemaFromServer(context.Background(), db, dbName(t, db))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Table("main1").Indexes); n != 14 {
		t.Errorf("main1 has %d indexes, want 14", n)
	}
	if !segmentsFinished(t, db) {
		t.Error("the prepare is not recorded finished")
	}
}

// A prepare split 4 ways, the segments at once or one after the other in
// any order, gives the tables of one process; exactly one segment
// finishes it, and a segment run again changes nothing.
func TestPrepareSegments(t *testing.T) {
	ctx := context.Background()
	ref := openDSN(t, testdb.Fresh(t, "ddl_seg_ref"))
	o := baseOpts()
	o.Threads, o.ChunkSize = 2, 300
	if _, err := Prepare(ctx, ref, o); err != nil {
		t.Fatal(err)
	}
	want := checksums(t, ref, o.Schema.TableNames())

	t.Run("together", func(t *testing.T) {
		db := openDSN(t, testdb.Fresh(t, "ddl_seg_together"))
		var wg sync.WaitGroup
		res := make([]*PrepareResult, 4)
		errs := make([]error, 4)
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				so := o
				so.Segment = segment.Segment{Index: i + 1, Count: 4}
				res[i], errs[i] = Prepare(ctx, db, so)
			}()
		}
		wg.Wait()
		finished, rows := 0, int64(0)
		for i := range 4 {
			if errs[i] != nil {
				t.Fatalf("segment %d: %v", i+1, errs[i])
			}
			rows += res[i].Rows
			if res[i].Finished {
				finished++
			}
		}
		if finished != 1 || rows != 7*testSize {
			t.Fatalf("%d segments finished the prepare (want 1), %d rows loaded (want %d)", finished, rows, 7*testSize)
		}
		checkLikeOneProcess(t, db, want)
	})

	t.Run("in reverse order, one again", func(t *testing.T) {
		db := openDSN(t, testdb.Fresh(t, "ddl_seg_reverse"))
		for _, i := range []int{4, 2, 3, 1} {
			so := o
			so.Segment = segment.Segment{Index: i, Count: 4}
			res, err := Prepare(ctx, db, so)
			if err != nil {
				t.Fatalf("segment %d: %v", i, err)
			}
			if res.Finished != (i == 1) {
				t.Fatalf("segment %d finished the prepare: %v", i, res.Finished)
			}
		}
		checkLikeOneProcess(t, db, want)
		// a Job retrying a pod runs its segment again: same tables
		so := o
		so.Segment = segment.Segment{Index: 3, Count: 4}
		if _, err := Prepare(ctx, db, so); err != nil {
			t.Fatal(err)
		}
		checkLikeOneProcess(t, db, want)
		// another split of the same database is refused
		so.Segment = segment.Segment{Index: 1, Count: 3}
		if _, err := Prepare(ctx, db, so); !usage.Is(err) {
			t.Fatalf("a prepare split 3 ways over one split 4 ways: %v, want a usage error", err)
		}
		if _, err := Cleanup(ctx, db, o.Schema); err != nil {
			t.Fatal(err)
		}
		if _, err := Prepare(ctx, db, so); err != nil {
			t.Fatalf("after cleanup: %v", err)
		}
	})
}

// Segments of one prepare load one dataset: a segment given another seed
// and table size than the first is refused before it touches a row,
// naming both differences, and the prepare is finished by a segment with
// the right options.
func TestPrepareSegmentsAgreeOnTheDataset(t *testing.T) {
	ctx := context.Background()
	db := openDSN(t, testdb.Fresh(t, "ddl_seg_agree"))
	o := baseOpts()
	o.Threads, o.ChunkSize = 2, 300
	first := o
	first.Segment = segment.Segment{Index: 1, Count: 2}
	if _, err := Prepare(ctx, db, first); err != nil {
		t.Fatal(err)
	}
	before := checksums(t, db, o.Schema.TableNames())

	other := o
	other.Gen.Seed, other.Gen.TableSize = 7, testSize+500
	other.Segment = segment.Segment{Index: 2, Count: 2}
	_, err := Prepare(ctx, db, other)
	if !usage.Is(err) || !strings.Contains(err.Error(), "its seed 99, this segment's is 7") ||
		!strings.Contains(err.Error(), fmt.Sprintf("its table size %d, this segment's is %d", testSize, testSize+500)) {
		t.Fatalf("a segment of another dataset: %v, want a usage error naming the seed and the table size", err)
	}
	if got := checksums(t, db, o.Schema.TableNames()); !equalSums(got, before) {
		t.Errorf("the refused segment changed the tables: %v, were %v", got, before)
	}
	if segmentsFinished(t, db) {
		t.Error("the refused segment marked the prepare finished")
	}

	second := o
	second.Segment = segment.Segment{Index: 2, Count: 2}
	if res, err := Prepare(ctx, db, second); err != nil || !res.Finished {
		t.Fatalf("segment 2 with the same options: %v", err)
	}
	for _, n := range o.Schema.TableNames() {
		if c := count(t, db, n); c != testSize {
			t.Errorf("%s: %d rows, want %d", n, c, testSize)
		}
	}
}

// A segments table of an older joinbench records no dataset: a segment is
// refused with cleanup as the advice.
func TestPrepareSegmentsTableOfAnOlderVersion(t *testing.T) {
	ctx := context.Background()
	db := openDSN(t, testdb.Fresh(t, "ddl_seg_old_table"))
	if _, err := db.Exec("CREATE TABLE " + SegmentsTable + ` (segment INT NOT NULL PRIMARY KEY, segments INT NOT NULL,
		client_host VARCHAR(255) NOT NULL DEFAULT '', started DATETIME(6) NULL, loaded DATETIME(6) NULL, finished DATETIME(6) NULL)`); err != nil {
		t.Fatal(err)
	}
	o := baseOpts()
	o.Segment = segment.Segment{Index: 1, Count: 2}
	if _, err := Prepare(ctx, db, o); !usage.Is(err) || !strings.Contains(err.Error(), "joinbench cleanup") {
		t.Fatalf("segment over an older segments table: %v", err)
	}
}
