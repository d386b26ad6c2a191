package rules

import (
	"slices"
	"strings"

	"github.com/joinbench/joinbench/analyzer"
)

// list are the rules lint runs besides the framework's own findings
// (scenario-format, lint-ignore). A new rule is a file of its own, a line
// here and a folder of test data named after it (TestEveryRuleIsListed
// and TestEveryRuleHasTestData check).
var list = []*analyzer.Analyzer{
	AmbiguousColumn,
	BlockingDDL,
	DuplicateAlias,
	HintIgnoredByFlavor,
	HintUnresolved,
	ImpossibleJoinOrder,
	IndexHintUnknown,
	JoinIndexUnusable,
	JoinWithoutIndex,
	LargeDML,
	NotChecked,
	OuterJoinNullified,
	PlaceholderType,
	PlanFullScanJoined,
	PlanIgnoresIndexHint,
	PlanIgnoresJoinOrder,
	PreservedSideOnFilter,
	RightJoin,

	ServerParsed,
	Syntax,
	UnknownColumn,
	UnknownTable,
}

// All returns every rule, the framework's own findings included, sorted
// by name: what lint runs, --rules lists and docs/rules.md documents.
func All() []*analyzer.Analyzer {
	out := append([]*analyzer.Analyzer{analyzer.ScenarioFormat, analyzer.LintIgnore}, list...)
	slices.SortFunc(out, func(a, b *analyzer.Analyzer) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Lookup returns the rule with that name, or nil.
func Lookup(name string) *analyzer.Analyzer {
	for _, a := range All() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Names returns the rules' names, sorted.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name)
	}
	return out
}
