// Package target resolves where a run goes: one or several MySQL-family
// endpoints given as DSNs, as host/port/user/socket options (with the
// mysql client's option files and environment), or a throwaway sandbox
// server started for the duration of a command.
//
// Endpoint names go into result files, so they never carry a password.
// The package does not create tables (ddl does) nor run scenarios (replay
// does).
package target
