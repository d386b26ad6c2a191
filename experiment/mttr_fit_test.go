package experiment

import (
	"strings"
	"testing"
)

// The figures below are made up, round to check the arithmetic: none is
// a measured magnitude.

func TestFitLine(t *testing.T) {
	// 4 s fixed and 100 MB/s, through three sizes.
	rate, fixed, ok := fitLine([]float64{1e9, 2e9, 4e9}, []float64{14, 24, 44})
	if !ok || !near(rate, 100e6) || !near(fixed, 4) {
		t.Errorf("fit: rate %v, fixed %v, ok %v; want 100e6, 4, true", rate, fixed, ok)
	}
	for name, c := range map[string][2][]float64{
		"sizes too close":            {{1e9, 1.2e9}, {14, 16}},
		"one point":                  {{1e9}, {14}},
		"a negative fixed part":      {{1e9, 4e9}, {5, 44}},
		"the larger took less time":  {{1e9, 4e9}, {44, 14}},
		"lengths differ":             {{1e9, 4e9}, {14}},
		"a size of nothing":          {{0, 4e9}, {1, 44}},
		"the same time at each size": {{1e9, 4e9}, {10, 10}},
	} {
		if _, _, ok := fitLine(c[0], c[1]); ok {
			t.Errorf("%s: fitted", name)
		}
	}
}

// fixedPhases are phases(size, reps) with fixed seconds added to the
// backup (5 s, its redo growing with it), the prepare (3 s) and the copy
// (2 s).
func fixedPhases(size float64, reps int) restorePhases {
	f := phases(size, reps)
	for i := range f.Restores {
		m := &f.Restores[i]
		m.BackupSeconds += 5
		m.RedoBytes += 5 * 10e6
		rate := map[string]float64{"100M": 50e6, "2G": 100e6}[m.UseMemory]
		m.PrepareSeconds = float64(m.RedoBytes)/rate + 3
		m.CopySeconds += 2
	}
	return f
}

func TestRatesFittedOverSizes(t *testing.T) {
	r := ratesOf(mergePhases([]restorePhases{fixedPhases(1e9, 1), fixedPhases(4e9, 1)}))
	if !near(r.Backup, 100e6) || !near(r.BackupFixed, 5) || !near(r.Copy, 1000e6) || !near(r.CopyFixed, 2) {
		t.Errorf("backup %v + %v s, copy %v + %v s; want 100e6 + 5, 1000e6 + 2", r.Backup, r.BackupFixed, r.Copy, r.CopyFixed)
	}
	if len(r.Apply) != 2 || !near(r.Apply[0].BytesPerSec, 50e6) || !near(r.Apply[0].Fixed, 3) || !near(r.Apply[1].BytesPerSec, 100e6) || !near(r.Join, 100e6) {
		t.Errorf("apply %+v, rj %v", r.Apply, r.Join)
	}
	if r.Sizes != [2]float64{1e9, 4e9} || strings.Join(r.Fitted, ",") != "backup,copy,prepare 100M,prepare 2G" {
		t.Errorf("sizes %v, fitted %v", r.Sizes, r.Fitted)
	}
	if row := ratesRows(r)["backup rb"]; row != "95.4 MiB/s, Fb 5.0 s fixed" {
		t.Errorf("the backup's row %q", row)
	}
	if row := ratesRows(r)["redo apply ra, --use-memory 100M"]; !strings.HasPrefix(row, "47.7 MiB/s, Fp 3.0 s fixed per prepare (fitted; the prepares applied ") {
		t.Errorf("the prepare's row %q", row)
	}
	// Sizes apart, but the larger took less time in every phase: no fit
	// holds, and the table says so.
	small, large := fixedPhases(1e9, 1), fixedPhases(4e9, 1)
	for i := range large.Restores {
		large.Restores[i].BackupSeconds, large.Restores[i].CopySeconds, large.Restores[i].PrepareSeconds = 1, 1, 1
	}
	none := ratesOf(mergePhases([]restorePhases{small, large}))
	if len(none.Fitted) != 0 || none.BackupFixed != 0 || !strings.HasPrefix(ratesRows(none)["fitted over the sizes"], "954 MiB to 3.7 GiB: no phase") {
		t.Errorf("no fit: %v, %q", none.Fitted, ratesRows(none)["fitted over the sizes"])
	}
	// One size: no fit, each rate over the sums, as before.
	if one := ratesOf(fixedPhases(1e9, 2)); one.BackupFixed != 0 || one.Sizes[1] != 0 || len(one.Fitted) != 0 || !near(one.Backup, 1e9/15) {
		t.Errorf("one size: %+v", one)
	}
}

// TestValidationOfTheFit: rates fitted over two sizes predict a third,
// larger one, phase by phase, where the rates of either size alone
// scale its fixed costs with it and miss.
func TestValidationOfTheFit(t *testing.T) {
	fit := mergePhases([]restorePhases{fixedPhases(1e9, 1), fixedPhases(4e9, 1)})
	large := fixedPhases(16e9, 1)
	s, missed, v := validation(fit, large)
	if missed != "" || !strings.Contains(v, "validated from 954 MiB–3.7 GiB to 14.9 GiB: every phase predicted within 30%") {
		t.Errorf("the fit: %q, %q", missed, v)
	}
	if !strings.Contains(s.Title, "14.9 GiB restore(s) predicted from the rates fitted over 954 MiB–3.7 GiB") || !strings.Contains(s.Notes[0], "4.0x the largest fitted") {
		t.Errorf("title %q, note %q", s.Title, s.Notes[0])
	}
	// The phases fitted and the start are exact; the join is J0 plus
	// the catch-up of the gap, which the made-up joins leave out.
	for _, row := range s.Table.Rows {
		if row[1] != "join (IST catch-up)" && row[1] != "MTTR" && row[5] != "+0%" {
			t.Errorf("row %v", row)
		}
	}
	// The smaller size alone over-predicts the copy (2 s fixed scaled
	// 16 times).
	if _, missed, _ := validation(fixedPhases(1e9, 1), large); !strings.Contains(missed, "copy into the data directory") {
		t.Errorf("one size: %q", missed)
	}
	// A smaller size validated against the fit is predicted too: the fit
	// is tested wherever the file given lies.
	if s, _, _ := validation(fit, fixedPhases(0.5e9, 1)); !strings.Contains(s.Title, "477 MiB restore(s) predicted from the rates fitted") {
		t.Errorf("a smaller size: %q", s.Title)
	}
}

func TestProjectRestoreFromSeveralFiles(t *testing.T) {
	small, mid, large := writePhases(t, fixedPhases(1e9, 1)), writePhases(t, fixedPhases(4e9, 1)), writePhases(t, fixedPhases(16e9, 1))
	p, err := ProjectRestore(Options{Out: t.TempDir(), RatesFrom: []string{small, mid}, Validate: large, ProjectSize: "10T"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.What, "4 restore(s) of backups of 954 MiB to 3.7 GiB") || !strings.Contains(p.Verdict, "every phase predicted within 30%") {
		t.Errorf("what %q, verdict %q", p.What, p.Verdict)
	}
	text, _, _ := rendered(t, p)
	for _, want := range []string{"fitted over the sizes", "Fb 5.0 s fixed", "backup = Fb + S / rb"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q:\n%s", want, text)
		}
	}
}
