package main

import (
	"fmt"
	"path/filepath"

	"github.com/joinbench/joinbench/results"
)

// recoverRuns turns what killed clients left in journals into executions
// files before report and compare read the runs (results.Recover), and
// says so. Nothing it meets stops the read: a folder it cannot write is
// warned of and read as it is.
func recoverRuns(dirs []string, warn func(error)) {
	for _, dir := range dirs {
		rec, err := results.Recover(dir, warn)
		if err != nil {
			warn(fmt.Errorf("%s: the rows a killed client left in its journal cannot be made Parquet, and are left out: %w", dir, err))
		}
		var counters string
		switch {
		case len(rec.StatusFiles) > 0 && len(rec.WorkFiles) > 0:
			counters = fmt.Sprintf("its server counters (%d rows) and work samples (%d rows)", rec.StatusRows, rec.WorkRows)
		case len(rec.StatusFiles) > 0:
			counters = fmt.Sprintf("its server counters (%d rows)", rec.StatusRows)
		case len(rec.WorkFiles) > 0:
			counters = fmt.Sprintf("its work samples (%d rows)", rec.WorkRows)
		}
		switch n := len(rec.Files); {
		case n > 0 && counters != "":
			warn(fmt.Errorf("%s: a client was stopped before it finished its run; the %d journal(s) it left are now Parquet files (%d executions), and so are %s",
				dir, n, rec.Rows, counters))
		case n > 0:
			warn(fmt.Errorf("%s: a client was stopped before it finished its run; the %d journal(s) it left are now Parquet files (%d executions)", dir, n, rec.Rows))
		case counters != "":
			warn(fmt.Errorf("%s: a client was stopped before it finished its run; %s are now Parquet files", dir, counters))
		}
		if rec.Lost > 0 || rec.LostUncounted {
			lost := fmt.Sprintf("%d rows", rec.Lost)
			switch {
			case rec.LostUncounted && rec.Lost == 0:
				lost = "rows (how many is not known)"
			case rec.LostUncounted:
				lost = fmt.Sprintf("at least %d rows", rec.Lost)
			}
			warn(fmt.Errorf("%s: %s were lost in damaged journal frames (where: see above)", dir, lost))
		}
		if len(rec.InUse) > 0 {
			warn(fmt.Errorf("%s: a client is still running (%s): its executions become readable when its run ends", dir, filepath.Base(rec.InUse[0])))
		}
	}
}
