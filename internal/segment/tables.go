package segment

// The tables through which the segments of a split prepare or run find
// each other, in the database under test. They are named here, in the one
// package both sides share, so that cleanup can drop every one of them.
const (
	// PrepareTable is where the segments of a split prepare record the
	// dataset and which of them finishes (ddl/load).
	PrepareTable = "joinbench_prepare_segments"
	// RunTable is where the segments of a split run claim their part and
	// meet before they start (replay's barrier).
	RunTable = "joinbench_run_segments"
)

// CoordinationTables are every table a split prepare or run may leave
// behind: the current ones and the barrier of older versions, which
// nothing reads any more.
var CoordinationTables = []string{PrepareTable, RunTable, "joinbench_run_barrier"}
