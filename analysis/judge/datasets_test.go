package judge

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
	"github.com/joinbench/joinbench/results"
)

// TestCompareRefusesDifferentData: runs whose prepare loaded different
// data are refused before any verdict, unless allowed (then warned
// about); data that runs wrote since prepare is warned about.
func TestCompareRefusesDifferentData(t *testing.T) {
	dir := t.TempDir()
	write := func(id string, size int64, sample string) string {
		info := &results.Run{RunID: id, ServerVersion: "10.11.6-MariaDB", Start: fixture.T0, End: fixture.T0.Add(5 * time.Second),
			Dataset: &results.Dataset{Tables: 1, TableName: "main", TableSize: size, Seed: 1, Distribution: "uniform",
				Rows: map[string]int64{"main1": size}, Sample: sample}}
		return fixture.Run{ID: id, Info: info, Execs: fixture.Gen(1, 5, fixture.Scen{Name: "a", N: 200, MedianMs: 2, Plan: "p"})}.Write(t, dir)
	}
	base, bigger, written := write("base", 2000, "x"), write("bigger", 3000, "y"), write("written", 2000, "z")

	_, err := Compare([]string{base}, []string{bigger}, compare.Options{})
	var differ *compare.DatasetsDiffer
	if !errors.As(err, &differ) || !strings.Contains(err.Error(), "table_size 2000 vs 3000") {
		t.Fatalf("different data: %v", err)
	}
	if _, _, err := Calibrate([]string{base, base}, []string{bigger, bigger}, compare.Options{}); !errors.As(err, &differ) {
		t.Errorf("a calibration on different data: %v", err)
	}
	// A side's rounds on different data are refused too.
	if _, err := Compare([]string{base, bigger}, []string{base, base}, compare.Options{}); !errors.As(err, &differ) ||
		!strings.Contains(err.Error(), "the base's run") {
		t.Errorf("rounds on different data: %v", err)
	}
	c, err := Compare([]string{base}, []string{bigger}, compare.Options{AllowDifferentData: true})
	if err != nil || !strings.Contains(strings.Join(c.Warnings, "\n"), "ran on different data") {
		t.Errorf("allowed: %v, warnings %q", err, c.Warnings)
	}
	c, err = Compare([]string{base}, []string{written}, compare.Options{})
	if err != nil || !strings.Contains(strings.Join(c.Warnings, "\n"), "a sample of its rows differs") {
		t.Errorf("written since prepare: %v, warnings %q", err, c.Warnings)
	}
}
