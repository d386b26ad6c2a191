// Package ab owns the experiment protocol of joinbench ab: how the same
// workload is run on a base and a candidate server so that their rounds
// can be compared pairwise. It orders the rounds (whole runs alternating
// base, candidate, candidate, base, ..., or one run per side in lockstep,
// each time slice a round), names and places the run folders
// (Out/ab=<series>/side=<side>/run=<id>/), records each run's replicate
// metadata in its run.json, runs a round again without warm-up when its
// events outlast it, and starts and stops the two runs in lockstep
// together (the turn-taking itself is replay.Lockstep). A side whose server
// fails after answering a round is a ServerError, not a mistake of the
// caller's; an interrupted experiment keeps its runs, each with its
// replicate.
//
// It must not connect to a server, prepare tables or make a run itself:
// a RunFunc given by the caller does, so the protocol is tested without a
// server. It must not compare the runs either (analysis/judge compares the
// folders it returns by analysis/compare's rule) nor print a run's
// summary or progress: its only output is its own progress lines and
// each side's notices, on the writers it is given.
package ab
