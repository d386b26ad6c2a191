package sqlcompat

import "iter"

// The finders read a statement one bracket level at a time: a clause
// keyword, a comma between arguments, the end of a query block all count
// only at the level where they stand.

// level yields the index of each token of st[from:to] at the bracket
// level of st[from], in order: what a bracket opened on the way holds is
// skipped, brackets included. The bracket that closes the level, when it
// comes before to, is yielded last.
func (st stmt) level(from, to int) iter.Seq[int] {
	return func(yield func(int) bool) {
		depth := 0
		for j := from; j < to; j++ {
			switch st[j].low {
			case "(":
				depth++
			case ")":
				if depth--; depth < 0 {
					yield(j)
					return
				}
			default:
				if depth == 0 && !yield(j) {
					return
				}
			}
		}
	}
}

// levelBefore yields the index of each token before st[i] at its bracket
// level, from st[i-1] back to the statement's start, skipping what
// brackets hold. The bracket that opens the level is yielded last.
func (st stmt) levelBefore(i int) iter.Seq[int] {
	return func(yield func(int) bool) {
		depth := 0
		for j := i - 1; j >= 0; j-- {
			switch st[j].low {
			case ")":
				depth++
			case "(":
				if depth--; depth < 0 {
					yield(j)
					return
				}
			default:
				if depth == 0 && !yield(j) {
					return
				}
			}
		}
	}
}
