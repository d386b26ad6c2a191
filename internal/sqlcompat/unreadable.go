package sqlcompat

// Unreadable returns the construct of the family s, among those Rewrite
// has no rewrite for, at which a parser reading text stopped (off is
// where it stopped), with its first words; nil when the text there is
// none of them. A caller tells the statement apart from a mistake by it:
// valid syntax the analysis cannot read.
func Unreadable(text string, off int, s Syntax) *Match {
	st := stmt(significant(text))
	i := 0
	for i < len(st) && st[i].End <= off {
		i++
	}
	// the parser stops at the token it rejects, or just after the word
	// that starts the construct
	for _, j := range []int{i, i - 1, i - 2} {
		var c *Construct
		switch {
		case st.at(j) == "json_table" && st.at(j+1) == "(":
			c = JSONTable
		case st.at(j) == "for" && st.at(j+1) == "system_time":
			c = SystemTime
		}
		if c != nil && (!c.MariaDB || s == MariaDB) {
			return &Match{c, st[j].Start, st[j+1].End}
		}
	}
	return nil
}
