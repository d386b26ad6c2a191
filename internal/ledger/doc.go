// Package ledger records every change joinbench makes to a server or its
// machine before it makes it, so that a joinbench that is killed (SIGKILL,
// an OOM kill, a lost terminal) leaves a note of what it left behind and
// the next command can undo it.
//
// A Ledger is kept where whoever touches the server next will look: a
// named sandbox's in its own folder (Folder: ledger/, one small JSON file
// per change, written atomically, a temporary file renamed, so several
// processes write to one ledger without a lock); a server reached by its
// address (--dsn, --host, --socket) in a table of its own on that server
// (Table: joinbench_ledger in the database joinbench uses, made on the
// first change), since the next command may run on another machine.
// Each change is an Entry: its kind (a cgroup limit, a global variable, a
// buffer-pool size, the triggers and table of an online schema change, a
// node taken down, a scratch folder), the node it is on, what undoes it
// (Undo, key and value pairs the writer chooses) and its Owner: the
// process that made it, by machine, pid and process start time, so that
// a pid the kernel has since given to another process is not taken for
// the writer. Add writes the entry before the change; the function it
// returns removes it once the change is undone.
//
// Leftovers are the entries whose owner is gone: what a dead joinbench
// could not undo. An owner on another machine cannot be seen from here:
// its entries are never leftovers, only named (Entry.Elsewhere). Lock
// keeps two repairs from undoing one leftover twice (flock on a file of
// the folder; GET_LOCK on the table's server). The package does not know
// how to undo anything: each kind's undo belongs to the package that made
// the change (the sandbox package's Repair and the server package's
// RepairServer put them together).
package ledger
