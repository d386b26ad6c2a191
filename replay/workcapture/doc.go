// Package workcapture is the engine's part of work: it takes the work of
// executions on a server: it runs the
// flavor's analyzing EXPLAIN of a read on a connection (Analyze), reads a
// connection's session counters around an execution (ReadStatus,
// StatusCost, Measure) and its last statement event (ReadStatementEvent).
// What the outputs mean, and the results.Work they become, is package
// work's, which links no driver so that report and compare read work files
// offline. (Plans are taken by explain/capture.)
//
// It must not decide which executions are sampled (work.Sampler and the
// engine do), hold connections of its own, or write anything.
package workcapture
