// Package liveplan checks scenario files against the plans a live server
// chooses for them (lint --check-plans): it renders each read scenario
// with sample values, runs EXPLAIN FORMAT=JSON on it in a read-only
// transaction, reduces the plan to its table accesses (package explain) and
// hands them to the analyzer's plan rules (analyzer.CheckPlan), which
// compare them with the file's index and join-order hints.
//
// It owns the talking to the server, so that package analyzer links no
// driver: reaching it as every command does (Open, through
// internal/server: connection flags, environment, option file, sandboxes,
// connect timeout), reading the schema and flavour lint resolves names
// against (Server.Schema), explaining (Check), and asking the server's
// parser about the statements the analyzer cannot read (Parse, which
// prepares them). Open never starts a server nor creates a database.
//
// It must never execute a statement: it explains plain SELECT scenarios
// only, never a write, and prepares a statement only to have it parsed,
// closing it unexecuted; both only inside a read-only transaction. The
// comparison itself, and what a parse verdict means for a file, are the
// analyzer's.
package liveplan
