package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileFromEnv starts a CPU profile of the whole command into the file
// $JOINBENCH_CPUPROFILE names, when it does: where joinbench's own time
// goes (bench/README.md). The returned function writes it; it is a no-op
// without the variable.
func profileFromEnv() (stop func()) {
	path := os.Getenv("JOINBENCH_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "joinbench: JOINBENCH_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
