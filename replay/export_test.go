package replay

import "time"

// ShortenStopTimes makes the runs of a test give up on a server that does
// not answer sooner (see stopTimes), until restore is called.
func ShortenStopTimes(abortAfter, endGrace, connect time.Duration) (restore func()) {
	old := defaultStopTimes
	defaultStopTimes = stopTimes{abortAfter: abortAfter, endGrace: endGrace, connect: connect}
	return func() { defaultStopTimes = old }
}

// LengthenLateLine has the progress lines of a test's runs wait up to d
// for the rows of their bucket, until restore is called.
func LengthenLateLine(d time.Duration) (restore func()) {
	old := lateLine
	lateLine = d
	return func() { lateLine = old }
}
