package work

import (
	"fmt"
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/results"
)

// AnalyzeStatement is the statement that runs query again and reports its
// work on a server of the flavor, and the source it is: ANALYZE
// FORMAT=JSON on MariaDB, EXPLAIN ANALYZE on MySQL and Percona 8.0.18+
// (FORMAT=TREE from 8.0.21, which explain_format=JSON would otherwise
// refuse). Servers without one get an error.
func AnalyzeStatement(fl flavor.Flavor, query string) (string, results.WorkSource, error) {
	query = strings.TrimSpace(query)
	switch {
	case fl.Is(flavor.MariaDB):
		return "ANALYZE FORMAT=JSON " + query, results.SourceMariaDBAnalyze, nil
	case fl.Is(flavor.MySQL, flavor.Percona) && fl.AtLeast(8, 0, 21):
		return "EXPLAIN ANALYZE FORMAT=TREE " + query, results.SourceMySQLAnalyze, nil
	case fl.Is(flavor.MySQL, flavor.Percona) && fl.AtLeast(8, 0, 18):
		return "EXPLAIN ANALYZE " + query, results.SourceMySQLAnalyze, nil
	}
	return "", "", fmt.Errorf("work: %s has no statement that reports the work of a read", fl)
}

// ParseAnalyze reads the output of the statement AnalyzeStatement gives for
// the flavor.
func ParseAnalyze(fl flavor.Flavor, text string) (*results.Work, error) {
	if fl.Is(flavor.MariaDB) {
		return ParseMariaDBAnalyze(text)
	}
	return ParseMySQLAnalyze(text)
}
