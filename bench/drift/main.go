// Command drift measures how the speed of this machine wanders over time,
// which decides how finely an A/B comparison must interleave its two
// sides (docs/compare.md): it times a fixed piece of CPU work, repeated in
// chunks of -chunk for -time, and prints, for windows of 1 to 2500
// chunks, the standard deviation of the mean log chunk time over windows
// and of the difference between adjacent windows.
//
//	go run ./bench/drift -time 40s
package main

import (
	"flag"
	"fmt"
	"math"
	"time"
)

func main() {
	chunk := flag.Duration("chunk", 2*time.Millisecond, "length of one timed piece of work")
	total := flag.Duration("time", 40*time.Second, "how long to measure")
	flag.Parse()

	var x uint64 = 1
	spin := func(n int) {
		for range n {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	t0 := time.Now()
	spin(10_000_000)
	per := float64(time.Since(t0)) / 1e7
	n := max(1, int(float64(*chunk)/per))

	var logs []float64
	end := time.Now().Add(*total)
	for time.Now().Before(end) {
		s := time.Now()
		spin(n)
		logs = append(logs, math.Log(float64(time.Since(s))))
	}
	fmt.Printf("%d chunks of about %s over %s\n", len(logs), *chunk, *total)
	for _, w := range []int{1, 5, 25, 50, 250, 500, 2500} {
		var means []float64
		for i := 0; i+w <= len(logs); i += w {
			s := 0.0
			for _, v := range logs[i : i+w] {
				s += v
			}
			means = append(means, s/float64(w))
		}
		if len(means) < 3 {
			continue
		}
		var diffs []float64
		for i := 1; i < len(means); i++ {
			diffs = append(diffs, means[i]-means[i-1])
		}
		fmt.Printf("windows of %8s: %6d windows, sd of the mean log time %.3f, sd of adjacent differences %.3f\n",
			time.Duration(w)**chunk, len(means), sd(means), sd(diffs))
	}
}

func sd(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}
