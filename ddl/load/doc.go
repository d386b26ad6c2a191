// Package load puts the built-in schema and its generated rows on a server
// and looks after them there: prepare (create the tables and load them),
// warmup, cleanup, and reading a database's schema back into the ddl
// model. It owns the load sessions, the worker pool and the progress
// displays.
//
// Prepare runs in stages, one function each: check the options, ask the
// server what it has (inspect), plan (pure: which tables to drop, create,
// empty or keep, the row ranges and where a resumed load starts), create,
// load (the worker pool; each table gets its deferred secondary indexes as
// soon as its last row is in), index (the tables a previous, interrupted
// load left without them) and analyse. When a load stops, the point to
// resume from is computed from the plan and the rows committed (pure).
// What a finished prepare loaded is recorded in a small table of the
// database (dataset.go), which runs read to record the data they ran on.
//
// Snapshots (snapshot*.go) make the second prepare of a dataset nearly
// free: after a load, the tables' tablespaces are copied out under FLUSH
// TABLES ... FOR EXPORT into a store keyed by everything that decides
// their bytes (SnapshotKey), and a later prepare of the same dataset on a
// server writing the same file format imports them (DISCARD/IMPORT
// TABLESPACE) instead of loading. A snapshot is taken only of tables that
// pass CHECK TABLE and records a checksum of every file, which a restore
// verifies on each copy before importing it (snapshot_verify.go). That
// needs the server's data directory on this machine; this package copies
// files there and nowhere else.
//
// It must not know about scenarios, lint rules or replay, and it never
// decides how to reach a server: it takes an open *sql.DB. The schema
// model, the DDL and the row generator belong to package ddl, which must
// stay free of any driver so that offline commands (lint, list, show) link
// none; anything here that needs no server belongs there.
package load
