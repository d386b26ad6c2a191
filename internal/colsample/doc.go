// Package colsample reads a bounded, seeded sample of the distinct values
// of a table's column from a server: the values a sample(TABLE.COLUMN)
// placeholder draws from. It owns only that query and the choice of
// values; the corpus declares the parameters, the run calls Read once per
// column when it starts.
package colsample
