// Package rules holds the lint rules: one analyzer.Analyzer per
// rule_*.go file, each seeing a file only through its analyzer.Pass (it
// is another package: the analysis behind the Pass is out of its reach),
// listed in rules.go, which All, Lookup and the rule reference
// (reference.go, docs/rules.md, `lint --explain-rule`) read. A few files
// hold what several rules share: join_order.go (the join-order hints),
// plan_view.go (a plan against the file's tables), collation.go.
//
// Adding a rule is two files, its rule_*.go and a testdata/RULE folder
// of .sql files that mark the expected findings inline (`-- want`, as
// go/analysis's analysistest reads them), and its line in rules.go;
// TestEveryRuleIsListed and TestRules check all three.
//
// It also owns RewriteRightJoins, the right-join rule's rewrite that
// `joinbench rewrite` prints. It must not import the lint driver or the
// outputs (analyzer.TestLayout checks).
package rules
