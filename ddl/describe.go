package ddl

import (
	"fmt"
	"strings"
)

// String renders the type as SQL, lower-case: "varchar(255)",
// "decimal(10,2) unsigned", "enum('active','inactive')",
// "varchar(36) character set latin1".
func (t Type) String() string {
	var b strings.Builder
	b.WriteString(t.Base)
	switch {
	case len(t.Members) > 0:
		b.WriteByte('(')
		for i, m := range t.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("'" + strings.ReplaceAll(m, "'", "''") + "'")
		}
		b.WriteByte(')')
	case t.Length > 0 && t.Decimals > 0:
		fmt.Fprintf(&b, "(%d,%d)", t.Length, t.Decimals)
	case t.Length > 0:
		fmt.Fprintf(&b, "(%d)", t.Length)
	case t.Decimals > 0:
		fmt.Fprintf(&b, "(%d)", t.Decimals)
	}
	if t.Unsigned {
		b.WriteString(" unsigned")
	}
	if t.Charset != "" {
		b.WriteString(" character set " + t.Charset)
	}
	if t.Collation != "" {
		b.WriteString(" collate " + t.Collation)
	}
	return b.String()
}

// Describe renders the schema as stable, readable text: one block per
// table with its columns and indexes. It is what golden tests compare and
// what a user sees when asking what a schema resolved to.
func (s *Schema) Describe() string {
	var b strings.Builder
	for i, t := range s.Tables() {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "table %s family=%s engine=%s", t.Name, t.Family, t.Engine)
		if t.Options != "" {
			fmt.Fprintf(&b, " options=%q", t.Options)
		}
		b.WriteByte('\n')
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "  column %s %s", c.Name, c.Type)
			if c.NotNull {
				b.WriteString(" not null")
			}
			if c.AutoIncrement {
				b.WriteString(" auto_increment")
			}
			if c.HasDefault {
				b.WriteString(" default " + c.Default)
			}
			b.WriteByte('\n')
		}
		for _, ix := range t.Indexes {
			kind := "index"
			switch {
			case ix.Primary:
				kind = "primary"
			case ix.Unique:
				kind = "unique"
			}
			fmt.Fprintf(&b, "  %s %s (%s)\n", kind, ix.Name, strings.Join(ix.Columns, ", "))
		}
	}
	return b.String()
}
