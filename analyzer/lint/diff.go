package lint

import (
	"fmt"
	"io"
	"strings"
)

// FileChange is what lint --fix changes, or would change, in one file.
type FileChange struct {
	Path          string
	Before, After string
	Edits         int // the fixes' edits applied
}

// diffContext is how many unchanged lines a hunk shows around a change,
// as diff -u does.
const diffContext = 3

// WriteDiff writes the change as a unified diff (diff -u, and what
// `patch -p0` applies), naming the file as name.
func (c FileChange) WriteDiff(w io.Writer, name string) error {
	a, b := splitLines(c.Before), splitLines(c.After)
	ops := diffLines(a, b)
	if len(ops) == 0 {
		return nil
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", name, name)
	for _, h := range hunks(ops, a, b) {
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(h.aStart, h.aLen), hunkRange(h.bStart, h.bLen))
		for _, l := range h.lines {
			out.WriteString(l)
			if !strings.HasSuffix(l, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// splitLines cuts text into lines, each keeping its newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineOp is one line of the edit script: ' ' kept, '-' deleted from a,
// '+' inserted from b; i and j are its indexes in a and b.
type lineOp struct {
	kind byte
	i, j int
}

// maxDiffCells bounds the longest-common-subsequence table: past it, the
// changed middle of the file is shown as one replacement.
const maxDiffCells = 4 << 20

// diffLines returns the edit script from a to b, or nil when they are
// equal. Fixes change a few nearby lines, so the common head and tail
// are cut first and the table covers the middle alone.
func diffLines(a, b []string) []lineOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	if head == len(a) && head == len(b) {
		return nil
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []lineOp
	for i := 0; i < head; i++ {
		ops = append(ops, lineOp{' ', i, i})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	if (len(ma)+1)*(len(mb)+1) > maxDiffCells {
		for i := range ma {
			ops = append(ops, lineOp{'-', head + i, head})
		}
		for j := range mb {
			ops = append(ops, lineOp{'+', head + len(ma), head + j})
		}
	} else {
		// lcs[i][j] is the length of the longest common subsequence of
		// ma[i:] and mb[j:].
		n, m := len(ma), len(mb)
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, lineOp{' ', head + i, head + j})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, lineOp{'-', head + i, head + j})
				i++
			default:
				ops = append(ops, lineOp{'+', head + i, head + j})
				j++
			}
		}
	}
	for k := 0; k < tail; k++ {
		ops = append(ops, lineOp{' ', len(a) - tail + k, len(b) - tail + k})
	}
	return ops
}

// hunk is one @@ section of a unified diff; starts are 0-based.
type hunk struct {
	aStart, aLen, bStart, bLen int
	lines                      []string
}

// hunks groups the edit script from a to b into hunks of changes with
// diffContext unchanged lines around them, merging hunks whose context
// would overlap.
func hunks(ops []lineOp, a, b []string) []hunk {
	var out []hunk
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		start, end := max(0, k-diffContext), k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(len(ops), end+diffContext)
				break
			}
			end = run
		}
		h := hunk{aStart: ops[start].i, bStart: ops[start].j}
		for _, op := range ops[start:end] {
			switch op.kind {
			case ' ':
				h.aLen++
				h.bLen++
				h.lines = append(h.lines, " "+a[op.i])
			case '-':
				h.aLen++
				h.lines = append(h.lines, "-"+a[op.i])
			case '+':
				h.bLen++
				h.lines = append(h.lines, "+"+b[op.j])
			}
		}
		out = append(out, h)
		k = end
	}
	return out
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
