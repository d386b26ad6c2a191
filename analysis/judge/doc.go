// Package judge compares two sides of run folders by the rule of
// analysis/compare: Compare (compare.go) and Calibrate (calibrate.go, the
// noise of an A/A comparison). It checks the datasets the runs record
// before anything else is read (datasets.go), has analysis/report read
// each side, its rounds and its actions' costs, hands each scenario's
// typed inputs to the rule (judging them on every core) and compares the
// actions of the first run of each side (actions.go).
//
// It must not read result files itself (analysis/report does), hold the
// rule (analysis/compare does), nor render (analysis/render does), and
// never talks to a server.
package judge
