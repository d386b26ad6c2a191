//go:build !unix

package replay

import "time"

// processCPU cannot be read here: runs record no client CPU.
func processCPU() (time.Duration, bool) { return 0, false }
