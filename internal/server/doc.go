// Package server owns everything about a server that is not a workload:
// where a command connects (one or several MySQL-family endpoints given as
// DSNs, as host/port/user/socket options with the mysql client's option
// files and environment, or a sandbox server, see package sandbox) and what
// the server is (DetectFlavor; the flavour type itself is in package flavor,
// which links no driver so that offline lint can use it).
//
// Every change a command makes to a server is noted first in its ledger
// (Endpoint.Ledger: a sandbox's folder, or the table package ledger keeps
// on a server reached by its address); Connect undoes what a killed
// joinbench left before anything else (repair.go for a server's table,
// package sandbox for a sandbox).
//
// Endpoint names go into result files, so they never carry a password.
// The package does not create tables (ddl does; package ledger makes its
// own) nor run scenarios (replay does).
package server
