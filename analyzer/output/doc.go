// Package output writes lint's findings, one file per format: text for
// people, JSON for scripts, SARIF for code scanning and GitHub workflow
// commands for a workflow's annotations. It knows the findings and the
// rules it is given (Options.Rules), never the driver or the rules
// package.
package output
