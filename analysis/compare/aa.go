package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/results"
)

// AANote is the note of a comparison whose two sides ran on the same
// server, "" otherwise: the same endpoints, seen from the same client, on
// the same server version. Nothing differs between such sides but the
// noise, so any verdict but "no change" is the noise's.
func AANote(base, cand *results.Run) string {
	if base == nil || cand == nil || len(base.Endpoints) == 0 || base.ClientHost == "" ||
		!slices.Equal(base.Endpoints, cand.Endpoints) || base.ClientHost != cand.ClientHost || base.ServerVersion != cand.ServerVersion {
		return ""
	}
	return fmt.Sprintf("the base and the candidate ran on the same server (%s): an A/A comparison, where nothing differs between the sides "+
		"but the noise of this setup (--calibrate records it)", strings.Join(base.Endpoints, ", "))
}
