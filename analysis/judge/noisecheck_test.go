package judge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/analysis/compare"
	"github.com/joinbench/joinbench/analysis/internal/fixture"
)

// TestCalibrationsAreChecked: a calibration is not written from sides
// that are not alike (a candidate 1.46x slower), and one read is refused
// when its figures are no calibration's, when it was made on another
// server version, or when it calibrates none of the scenarios compared.
func TestCalibrationsAreChecked(t *testing.T) {
	dir := t.TempDir()
	scs := []fixture.Scen{{Name: "a", N: 300, MedianMs: 5, Sigma: 0.05, Plan: "p"}, {Name: "b", N: 300, MedianMs: 8, Sigma: 0.05, Plan: "p"}}
	unlikeBase, unlikeCand := fixture.RoundsSeries(t, filepath.Join(dir, "unlike"), "u", 4, map[string]float64{"a": 1.46, "b": 1.46}, scs...)
	_, _, err := Calibrate(unlikeBase, unlikeCand, compare.Options{})
	var ne *compare.NoiseError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "the sides are not alike (their median latencies differ by a ratio of 1.46") {
		t.Errorf("calibration of unlike sides: %v", err)
	}

	aaBase, aaCand := fixture.RoundsSeries(t, filepath.Join(dir, "aa"), "aa", 4, nil, scs...)
	noise, _, err := Calibrate(aaBase, aaCand, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "noise.json")
	if err := noise.Write(path); err != nil {
		t.Fatal(err)
	}
	good, err := compare.ReadNoise(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compare(aaBase, aaCand, compare.Options{Noise: good}); err != nil {
		t.Errorf("its own setup: %v", err)
	}

	for name, edit := range map[string]func(n *compare.Noise){
		"sigma 1e308":    func(n *compare.Noise) { s := n.Scenarios["a"]; s.Median.Sigma = 1e308; n.Scenarios["a"] = s },
		"negative sigma": func(n *compare.Noise) { s := n.Scenarios["b"]; s.P95.Sigma = -0.2; n.Scenarios["b"] = s },
		"confidence 2":   func(n *compare.Noise) { n.Confidence = 2 },
		"one round":      func(n *compare.Noise) { s := n.Scenarios["a"]; s.Rounds = 1; n.Scenarios["a"] = s },
	} {
		n, _ := compare.ReadNoise(path)
		edit(n)
		bad := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		if err := n.Write(bad); err != nil {
			t.Fatal(err)
		}
		if _, err := compare.ReadNoise(bad); !errors.As(err, &ne) || ne.Path != bad || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}

	other, _ := compare.ReadNoise(path)
	other.ServerVersion = "11.4.2-MariaDB"
	if _, err := Compare(aaBase, aaCand, compare.Options{Noise: other}); !errors.As(err, &ne) ||
		!strings.Contains(err.Error(), "calibrated on server 11.4.2-MariaDB, but the base runs 10.11.6-MariaDB") {
		t.Errorf("another server version: %v", err)
	}
	unrelated, _ := compare.ReadNoise(path)
	unrelated.Scenarios = map[string]compare.ScenarioNoise{"elsewhere": unrelated.Scenarios["a"]}
	unrelated.Overall = nil
	if _, err := Compare(aaBase, aaCand, compare.Options{Noise: unrelated}); !errors.As(err, &ne) ||
		!strings.Contains(err.Error(), "calibrates none of the 2 scenario(s) compared (it has elsewhere)") {
		t.Errorf("no scenario in common: %v", err)
	}
	os.Remove(path)
}
