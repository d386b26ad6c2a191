// Package sqltx runs the small coordination transactions that clients of
// one prepare or one run make in the database under test (the segments'
// tables), retrying them when the server asks to.
//
// It knows nothing of what the transactions do.
package sqltx
