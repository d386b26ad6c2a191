// Package warn collects the warnings of reading result folders: report
// and judge both keep them in what they return and pass them on to the
// caller's function as they come.
package warn

// Collector appends each warning to List and passes it to Fn (when set).
type Collector struct {
	List *[]string
	Fn   func(error)
}

// Warn records err.
func (c Collector) Warn(err error) {
	*c.List = append(*c.List, err.Error())
	if c.Fn != nil {
		c.Fn(err)
	}
}

// WarnIf records err when it is not nil.
func (c Collector) WarnIf(err error) {
	if err != nil {
		c.Warn(err)
	}
}
