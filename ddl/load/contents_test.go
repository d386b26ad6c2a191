package load

import (
	"context"
	"testing"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/testdb"
)

// TestContentsSeeChanges: the digest of a table's rows changes with a row
// inserted away from the three ids the sample looks up (which does not
// see it), and with one value changed; an index dropped changes the
// table's index digest, not its rows'; the other tables keep theirs, and
// the same rows digest the same.
func TestContentsSeeChanges(t *testing.T) {
	ctx := context.Background()
	db := openDSN(t, testdb.Fresh(t, "ddl_contents"))
	o := PrepareOptions{Schema: ddl.SchemaOptions{Tables: 1}, Gen: ddl.GenOptions{Seed: 3, TableSize: 300}, NoAnalyze: true}
	if _, err := Prepare(ctx, db, o); err != nil {
		t.Fatal(err)
	}
	read := func() (*Dataset, map[string]TableContents) {
		t.Helper()
		d, err := ReadDataset(ctx, db)
		if err != nil || d == nil {
			t.Fatalf("dataset %+v, %v", d, err)
		}
		c, err := Contents(ctx, db, d)
		if err != nil {
			t.Fatal(err)
		}
		return d, c
	}
	d0, c0 := read()
	if len(c0) != 6 || c0["level1"].Rows != 300 || c0["main1"].Rows != 300 || c0["level1"].Checksum == "" ||
		c0["main1"].Excluded != "float_number" || c0["level1"].Ranges != 0 || c0["level1"].Indexes == "" {
		t.Fatalf("contents %+v", c0)
	}
	if _, again := read(); !equalContents(again, c0) {
		t.Fatalf("the same rows digested twice differ: %+v then %+v", c0, again)
	}

	// A row inserted at the end, as the attack did.
	if _, err := db.ExecContext(ctx, "INSERT INTO level1 (continent, parent_id, record_priority) VALUES ('Asia', 7, 3)"); err != nil {
		t.Fatal(err)
	}
	d1, c1 := read()
	if d1.Sample != d0.Sample {
		t.Logf("the sample saw the insertion too")
	}
	if c1["level1"].Rows != 301 || c1["level1"].Checksum == c0["level1"].Checksum {
		t.Errorf("a row inserted into level1: %+v, before %+v", c1["level1"], c0["level1"])
	}
	for _, tb := range []string{"main1", "level2", "level5"} {
		if c1[tb] != c0[tb] {
			t.Errorf("%s unchanged, yet its digest went %+v → %+v", tb, c0[tb], c1[tb])
		}
	}

	// One value changed in a row the sample does not look at.
	if _, err := db.ExecContext(ctx, "UPDATE level2 SET record_value = record_value + 1 WHERE id = 77"); err != nil {
		t.Fatal(err)
	}
	_, c2 := read()
	if c2["level2"].Rows != 300 || c2["level2"].Checksum == c1["level2"].Checksum {
		t.Errorf("a value changed in level2: %+v, before %+v", c2["level2"], c1["level2"])
	}

	if _, err := db.ExecContext(ctx, "ALTER TABLE level3 DROP INDEX idx_parent_id"); err != nil {
		t.Fatal(err)
	}
	_, c3 := read()
	if c3["level3"].Checksum != c2["level3"].Checksum || c3["level3"].Indexes == c2["level3"].Indexes {
		t.Errorf("an index dropped from level3: %+v, before %+v", c3["level3"], c2["level3"])
	}
}

// TestContentsRanges: a large table's digest reads ranges spread over
// 1..size, the first at 1, none past size.
func TestContentsRanges(t *testing.T) {
	r := contentsRanges(10_000_000)
	if len(r) != ContentsRanges || r[0][0] != 1 || r[0][1] != ContentsRangeRows || r[len(r)-1][1] > 10_000_000 {
		t.Fatalf("ranges %v", r)
	}
	for i := 1; i < len(r); i++ {
		if r[i][0] <= r[i-1][1] {
			t.Fatalf("ranges overlap: %v, %v", r[i-1], r[i])
		}
	}
}

func equalContents(a, b map[string]TableContents) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
