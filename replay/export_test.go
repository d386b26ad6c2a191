package replay

import "time"

// ShortenStopTimes makes the runs of a test give up on a server that does
// not answer sooner (see stopTimes), until restore is called.
func ShortenStopTimes(abortAfter, endGrace, connect time.Duration) (restore func()) {
	old := defaultStopTimes
	defaultStopTimes = stopTimes{abortAfter: abortAfter, endGrace: endGrace, connect: connect}
	return func() { defaultStopTimes = old }
}
