// Package corpus owns the scenario file format: the `-- key: value` header,
// typed placeholder declarations, value generators and their distributions,
// loading (the built-in scenarios embedded with go:embed plus user
// directories and files, with their NAME.list value lists) and rendering a
// scenario into SQL text and bound arguments. Its loader is the only one:
// list, show, run and lint all read scenarios through Load or Check, so
// they accept and refuse the same files.
//
// It must not parse SQL beyond finding placeholders (that is the analyzer's
// job) and must not talk to a server.
package corpus
