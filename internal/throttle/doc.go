// Package throttle makes one process slower by a stated fraction for a
// while, with Linux control groups: its CPU time (cgroup v2 cpu.max, v1
// cpu.cfs_quota_us) or its disk I/O on the block device of a given path
// (v2 io.max, v1 blkio.throttle.*). It moves the process into a group of
// its own for the time of the limit, and back when it ends.
//
// "X% slower" is relative to what the process did just before: its rate is
// measured first, unthrottled, and the limit then holds it at (1-X) of
// that rate. The kernel's limits are caps, and a cap does not translate
// into a rate one for one (a process that waits for each write before the
// next loses more than the cap takes away), so the limit is adjusted every
// second until the rate measured under it is the target (control.go).
//
// Cap (cap.go) is the other kind of limit: a process's disk reads held
// at a fixed number of operations a second until it is lifted, a disk of
// a given speed whatever the machine's own, in a group of the same name.
//
// A caller that may be killed while a limit holds notes the group before
// it is made (Spec.Record); Release undoes such a group later.
//
// It knows nothing of servers, sandboxes or runs: a process id, a path
// and a fraction.
package throttle
