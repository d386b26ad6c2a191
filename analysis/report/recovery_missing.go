package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/joinbench/joinbench/results"
)

// recoveryMissing says when a run had crash actions but its folder has no
// recovery.parquet (removed, or lost with the client): the report's
// recovery section would otherwise be left out without a word, as if no
// node had been crashed. nil when there is nothing to say.
func recoveryMissing(dir string, actions []results.Action) error {
	crashes := map[int32]bool{}
	for _, a := range actions {
		if a.Kind == "crash" && a.Outcome != results.ActionSkipped {
			crashes[a.Action] = true
		}
	}
	if len(crashes) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, results.RecoveryFile)); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return fmt.Errorf("%s: the run had %d crash action(s) but no %s: how the nodes came back is not known, and the report has no recovery section",
		dir, len(crashes), results.RecoveryFile)
}
