package suggest

import "strings"

// Closest returns the candidate nearest to name by edit distance, case
// ignored, or "" when none is near enough to be a likely typo: the
// distance must be under a third of the name's length plus one, and
// under 3 at least. An exact match is not a suggestion.
func Closest(name string, cands []string) string {
	best, bestD := "", max(3, len(name)/3+1)
	low := strings.ToLower(name)
	for _, c := range cands {
		if d := Distance(low, strings.ToLower(c)); d < bestD && d > 0 {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean is Closest as the end of a message, "; did you mean X?", or
// "" without a suggestion.
func DidYouMean(name string, cands []string) string {
	if best := Closest(name, cands); best != "" {
		return "; did you mean " + best + "?"
	}
	return ""
}

// Distance is the Levenshtein distance between a and b in bytes; names
// longer than 64 bytes are too far from anything (99) to be worth the
// quadratic work.
func Distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
