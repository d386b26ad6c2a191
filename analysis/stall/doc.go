// Package stall measures what an action of a run (a schema change, a large
// DML, a fault on a node) cost the workload: per endpoint, the longest
// stretch of time in which no write succeeded, and the worst latency of the
// writes caught in it (or that none was running); an endpoint no client
// wrote through is no traffic, not a stall. The live summary of `joinbench
// run` and `joinbench report` both use it, so that they agree. It also
// reduces a crash's recovery timeline (recovery.go) and the peak extra
// disk an action took (disk.go) for both to show.
//
// It keeps, per endpoint, two figures per slot of time (10 ms, wider for
// runs of hours): whether a write completed in the slot, and the longest
// write that started in it. Memory grows with the run's length, not with
// its executions.
//
// It must not read or write files, nor print.
package stall
