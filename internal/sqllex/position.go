package sqllex

import "sort"

// Position returns the 1-based line and column of the byte offset off in
// src. Columns count bytes, as diagnostics in file:line:col form do. An
// offset outside src is clamped to it.
func Position(src string, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return line, off - lineStart + 1
}

// Lines converts offsets of one text to lines and columns, and back,
// without rescanning the text each time.
type Lines struct {
	starts []int // offset where each line starts
	size   int
}

// NewLines indexes the lines of src.
func NewLines(src string) *Lines {
	l := &Lines{}
	l.Reset(src)
	return l
}

// Reset indexes the lines of src in place of the text l indexed, reusing
// its memory (a caller going through many texts makes one Lines).
func (l *Lines) Reset(src string) {
	if n := 1 + len(src)/32; cap(l.starts) < n {
		l.starts = make([]int, 0, n)
	}
	l.starts, l.size = append(l.starts[:0], 0), len(src)
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
}

// Position returns the 1-based line and byte column of off, as the
// function Position does.
func (l *Lines) Position(off int) (line, col int) {
	off = min(max(off, 0), l.size)
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	return i + 1, off - l.starts[i] + 1
}

// Start returns the offset where the 1-based line starts (clamped to the
// first and last line).
func (l *Lines) Start(line int) int {
	return l.starts[min(max(line-1, 0), len(l.starts)-1)]
}
