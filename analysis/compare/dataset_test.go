package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/results"
)

func dataset(size int64, seed uint64, sample string) *results.Dataset {
	return &results.Dataset{Tables: 1, TableName: "main", TableSize: size, Seed: seed, Distribution: "uniform", Engine: "InnoDB",
		Schema: "s1", Generated: "g-" + string(rune('0'+seed)), Rows: map[string]int64{"main1": size, "level1": size}, Sample: sample}
}

func TestSameDataset(t *testing.T) {
	same := SameDataset("the base", "the candidate", dataset(2000, 1, "x"), dataset(2000, 1, "x"))
	if same != nil {
		t.Errorf("the same data: %v", same)
	}
	var differ *DatasetsDiffer
	err := SameDataset("the base", "the candidate", dataset(2000, 1, "x"), dataset(3000, 1, "y"))
	if !errors.As(err, &differ) || strings.Join(differ.Differences, "; ") != "table_size 2000 vs 3000; rows of level1 2000 vs 3000; rows of main1 2000 vs 3000" ||
		!strings.HasPrefix(err.Error(), "the base and the candidate ran on different data (table_size 2000 vs 3000;") {
		t.Errorf("another size: %v", err)
	}
	err = SameDataset("the base", "the candidate", dataset(2000, 1, "x"), dataset(2000, 7, "y"))
	if !errors.As(err, &differ) || differ.Differences[0] != "seed 1 vs 7" {
		t.Errorf("another seed: %v", err)
	}
	var modified *DataModified
	if err := SameDataset("the base", "the candidate", dataset(2000, 1, "x"), dataset(2000, 1, "y")); !errors.As(err, &modified) {
		t.Errorf("written since: %v", err)
	}
	var unknown *DatasetUnknown
	if err := SameDataset("the base", "the candidate", nil, dataset(2000, 1, "y")); !errors.As(err, &unknown) || unknown.Run != "the base" {
		t.Errorf("one unrecorded: %v", err)
	}
	if err := SameDataset("the base", "the candidate", nil, nil); err != nil {
		t.Errorf("neither recorded: %v", err)
	}
}

// TestSameDatasetContents: rows inserted into level1 leave the three-row
// sample as it was, but not the digest of the contents: the datasets are
// told modified, naming the table, and work is not compared; the same
// contents with another sample (an older digest) are the same data.
func TestSameDatasetContents(t *testing.T) {
	withContents := func(level1Rows int64, checksum string) *results.Dataset {
		d := dataset(2000, 1, "x")
		d.Contents = map[string]results.TableContents{
			"main1":  {Rows: 2000, Checksum: "111"},
			"level1": {Rows: level1Rows, Checksum: checksum},
		}
		return d
	}
	if err := SameDataset("the base", "the candidate", withContents(2000, "5"), withContents(2000, "5")); err != nil {
		t.Errorf("the same contents: %v", err)
	}
	var modified *DataModified
	err := SameDataset("the base", "the candidate", withContents(2000, "5"), withContents(2026, "8"))
	if !errors.As(err, &modified) || strings.Join(modified.Differences, "; ") != "level1 2000 vs 2026 rows" ||
		!strings.Contains(err.Error(), "contents differ when each started (level1 2000 vs 2026 rows)") {
		t.Errorf("rows inserted into level1: %v", err)
	}
	err = SameDataset("the base", "the candidate", withContents(2000, "5"), withContents(2000, "6"))
	if !errors.As(err, &modified) || strings.Join(modified.Differences, "; ") != "level1 other rows (the same 2000)" {
		t.Errorf("a row of level1 changed: %v", err)
	}
	run := func(id string, d *results.Dataset) []*results.Run {
		return []*results.Run{{RunID: id, Dataset: d, Options: &results.RunOptions{Seed: 1, Tables: 1, TableSize: 2000}}}
	}
	why := WorkComparable(run("a", withContents(2000, "5")), run("b", withContents(2026, "8")), 10, 10)
	if !strings.Contains(why, "level1 2000 vs 2026 rows") {
		t.Errorf("work compared on other data, or without saying why: %q", why)
	}
	if why := WorkComparable(run("a", withContents(2000, "5")), run("b", withContents(2000, "5")), 10, 10); why != "" {
		t.Errorf("work not compared on the same data: %q", why)
	}
}
