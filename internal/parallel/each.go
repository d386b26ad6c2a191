// Package parallel runs independent pieces of work on every core: the
// files of a run read, the scenarios of a report or a comparison judged.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(0) ... fn(n-1) on up to GOMAXPROCS goroutines and returns
// when all have returned. Each call must touch only what index i owns (and
// read what is shared).
func Each(n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
