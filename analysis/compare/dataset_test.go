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
