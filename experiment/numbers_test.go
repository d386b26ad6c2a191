package experiment

import (
	"strings"
	"testing"
)

// numbersFrom1 joins as many digit tables as n has digits, at least one:
// its largest number, 10^tables, is at least n.
func TestNumbersFrom1CoversN(t *testing.T) {
	for n, tables := range map[int64]int{1: 1, 9: 1, 10: 1, 11: 2, 1000: 3, 100000: 5, 100001: 6} {
		q := numbersFrom1(n)
		if got := strings.Count(q, "SELECT 9) d"); got != tables {
			t.Errorf("numbersFrom1(%d): %d digit tables, want %d:\n%s", n, got, tables, q)
		}
		if strings.Contains(q, "seq_") {
			t.Errorf("numbersFrom1(%d) uses MariaDB's sequence tables", n)
		}
	}
}
