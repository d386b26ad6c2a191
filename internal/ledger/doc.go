// Package ledger records every change joinbench makes to a server or its
// machine before it makes it, so that a joinbench that is killed (SIGKILL,
// an OOM kill, a lost terminal) leaves a note of what it left behind and
// the next command can undo it.
//
// A ledger is a folder (a named sandbox keeps it in its own folder, as
// ledger/). Each change is one small JSON file in it, an Entry: its kind
// (a cgroup limit, a global variable, a buffer-pool size, the triggers and
// table of an online schema change, a node taken down, a scratch folder),
// the node it is on, what undoes it (Undo, key and value pairs the writer
// chooses) and its Owner: the process that made it, by pid and by process
// start time, so that a pid the kernel has since given to another process
// is not taken for the writer. Add writes the entry before the change;
// the function it returns removes it once the change is undone. One file
// per entry makes each write atomic (a temporary file renamed) and lets
// several processes write to one ledger without a lock.
//
// Leftovers are the entries whose owner is gone: what a dead joinbench
// could not undo. The package does not know how to undo anything: each
// kind's undo belongs to the package that made the change (the sandbox
// package's Repair puts them together).
package ledger
