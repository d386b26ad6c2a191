// Package corpus owns the scenario file format: the `-- key: value` header,
// typed placeholder declarations, value generators and their distributions,
// loading (the built-in scenarios embedded with go:embed plus user
// directories) and rendering a scenario into SQL text and bound arguments.
//
// It must not parse SQL beyond finding placeholders (that is the analyzer's
// job) and must not talk to a server.
package corpus
