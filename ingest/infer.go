package ingest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Values says how the import turns the values a log saw into
// placeholders.
type Values string

const (
	// ValuesInfer fits a kind to the column and the values: a sample of
	// the column's data for an equality on an indexed column, the
	// members of an ENUM, the range of integers seen, the strings seen
	// (or their lengths when there are many).
	ValuesInfer Values = "infer"
	// ValuesLog keeps the values the log saw, as a list per placeholder.
	ValuesLog Values = "log"
)

// maxListed is the most distinct strings the inference keeps as a list;
// beyond, a string placeholder of the lengths seen stands for them.
const maxListed = 100

// constantAfter is how many executions with one value make a slot a
// constant kept in the SQL (a status the application always asks for)
// rather than a placeholder.
const constantAfter = 5

// Param is what one value of a scenario becomes.
type Param struct {
	// Name is the placeholder's name; "" when the value stays a
	// literal.
	Name string
	// Decl is its declaration: "sample(orders.customer_id)",
	// "int(1,90)", "list(NAME)" ...
	Decl string
	// List holds the values of a list(NAME) declaration; ListName its
	// file's name (without .list).
	List     []string
	ListName string
	// Literal is the SQL text of a value kept as written.
	Literal string
	// Why says in a few words why the kind was chosen, for the file's
	// header.
	Why string
}

// InferOptions tune Infer.
type InferOptions struct {
	Values Values
	// SampleSize is the N of sample(TABLE.COLUMN, N); 0 leaves the
	// default.
	SampleSize int
}

// Infer chooses a placeholder for each slot of g's example statement (an
// IN list gets one per element of the example's list). scenario names
// the value lists it makes. It fails when a slot has neither values nor a
// column to draw from (a digest's ? without a schema).
func Infer(g *Group, uses []Use, scenario string, o InferOptions) ([][]Param, error) {
	out := make([][]Param, len(g.Values))
	names := map[string]int{}
	for i, vals := range g.Values {
		u := uses[i]
		n := len(g.Example.Slots[i].Values)
		p, err := inferSlot(g, i, vals, u, o)
		if err != nil {
			return nil, err
		}
		if p.Decl == "" {
			// Kept as written: the example's own text.
			out[i] = []Param{p}
			continue
		}
		base := placeholderName(u.Name, i)
		if p.ListName == "" && strings.HasPrefix(p.Decl, "list(") {
			p.ListName = scenario + "_" + base
			p.Decl = "list(" + p.ListName + ")"
		}
		for k := 0; k < n; k++ {
			q := p
			q.Name = uniqueName(names, base)
			out[i] = append(out[i], q)
		}
	}
	return out, nil
}

func inferSlot(g *Group, i int, vals []string, u Use, o InferOptions) (Param, error) {
	ints := allIntegers(vals)
	switch {
	case u.Limit:
		if len(vals) == 1 {
			return Param{Literal: vals[0]}, nil
		}
		if len(vals) > 1 && ints {
			lo, hi := intRange(vals)
			return Param{Decl: fmt.Sprintf("int(%d,%d)", lo, hi), Why: "LIMIT counts seen"}, nil
		}
		return Param{Literal: "100", Why: "the source kept no LIMIT count: 100 chosen"}, nil
	case len(vals) == 1 && g.Count >= constantAfter && o.Values != ValuesLog:
		return Param{Literal: literalText(vals[0], g.Quoted[i])}, nil
	case u.Column == nil && u.Name == "" && len(vals) > 0:
		// Compared with no column (THEN 1, * 100): part of the
		// expression, not a value the application chose.
		return Param{Literal: literalText(vals[0], g.Quoted[i])}, nil
	case u.Column == nil:
		switch {
		case len(vals) == 0:
			if u.Name == "" {
				return Param{}, fmt.Errorf("value %d: the source does not say it, and it is compared with no column (a constant of an expression?): import a slow log for this statement", i+1)
			}
			return Param{}, fmt.Errorf("value %d: the source does not say it, and its column %s is not in the schema (give --schema or --dsn)", i+1, u.Name)
		case ints && !g.Quoted[i] && o.Values != ValuesLog:
			lo, hi := intRange(vals)
			return Param{Decl: fmt.Sprintf("int(%d,%d)", lo, hi), Why: "integers seen"}, nil
		default:
			return listOf(vals, "values seen")
		}
	}
	col := u.Column
	sample := fmt.Sprintf("sample(%s.%s)", u.Table, col.Name)
	if o.SampleSize > 0 {
		sample = fmt.Sprintf("sample(%s.%s, %d)", u.Table, col.Name, o.SampleSize)
	}
	if len(vals) == 0 {
		return Param{Decl: sample, Why: "the source kept no values: drawn from the data"}, nil
	}
	if o.Values == ValuesLog {
		return listOf(vals, "values seen (--values log)")
	}
	switch t := col.Type; {
	case t.Base == "enum" || t.Base == "set":
		return Param{Decl: "list(" + u.Table + "_" + col.Name + ")", ListName: u.Table + "_" + col.Name,
			List: t.Members, Why: "members of " + strings.ToUpper(t.Base)}, nil
	case u.Index && u.Equality:
		return Param{Decl: sample, Why: "equality on an indexed column: existing values"}, nil
	case t.IsInteger() && ints:
		lo, hi := intRange(vals)
		return Param{Decl: fmt.Sprintf("int(%d,%d)", lo, hi), Why: "range seen"}, nil
	case isDateType(t.Base):
		if lo, hi, midnight, ok := dayRange(vals); ok && (!u.Equality || midnight) {
			return Param{Decl: fmt.Sprintf("date(%s,%s)", lo, hi), Why: "range of days seen"}, nil
		}
	case t.IsString() && len(vals) > maxListed:
		lo, hi := lengths(vals)
		return Param{Decl: fmt.Sprintf("string(%d,%d)", lo, hi), Why: fmt.Sprintf("%d strings seen: their lengths", len(vals))}, nil
	}
	return listOf(vals, "values seen")
}

// listOf is a list of values seen: those a list file can hold (one line,
// no blank around it, not a comment).
func listOf(vals []string, why string) (Param, error) {
	var keep []string
	for _, v := range vals {
		if v != "" && v == strings.TrimSpace(v) && !strings.ContainsAny(v, "\n\r") && !strings.HasPrefix(v, "#") {
			keep = append(keep, v)
		}
	}
	if len(keep) == 0 {
		lo, hi := lengths(vals)
		return Param{Decl: fmt.Sprintf("string(%d,%d)", lo, max(hi, 1)), Why: "values a list file cannot hold: their lengths"}, nil
	}
	if len(keep) < len(vals) {
		why += fmt.Sprintf(" (%d that a list file cannot hold left out)", len(vals)-len(keep))
	}
	return Param{Decl: "list()", List: keep, Why: why}, nil
}

var nonName = regexp.MustCompile(`[^a-z0-9_]+`)

// placeholderName makes a placeholder's name of a column's (v1, v2 ...
// when there is none).
func placeholderName(col string, i int) string {
	n := strings.Trim(nonName.ReplaceAllString(strings.ToLower(col), "_"), "_")
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return fmt.Sprintf("v%d", i+1)
	}
	return n
}

func uniqueName(used map[string]int, base string) string {
	used[base]++
	if used[base] == 1 {
		return base
	}
	return fmt.Sprintf("%s_%d", base, used[base])
}

func allIntegers(vals []string) bool {
	for _, v := range vals {
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return false
		}
	}
	return len(vals) > 0
}

func intRange(vals []string) (lo, hi int64) {
	for i, v := range vals {
		n, _ := strconv.ParseInt(v, 10, 64)
		if i == 0 || n < lo {
			lo = n
		}
		if i == 0 || n > hi {
			hi = n
		}
	}
	return lo, hi
}

func lengths(vals []string) (lo, hi int) {
	for i, v := range vals {
		n := len([]rune(v))
		if i == 0 || n < lo {
			lo = n
		}
		if i == 0 || n > hi {
			hi = n
		}
	}
	return lo, hi
}

// literalText writes a value back as SQL: a string quoted, a number as is.
func literalText(v string, quoted bool) string {
	if !quoted {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `'`, `''`, "\n", `\n`, "\r", `\r`, "\x00", `\0`)
	return "'" + r.Replace(v) + "'"
}

func isDateType(base string) bool {
	return base == "date" || base == "datetime" || base == "timestamp"
}

// dayRange is the first and last day of values written as dates or
// datetimes (YYYY-MM-DD, optionally a time after); midnight says whether
// every value is a day at midnight, which a day drawn can equal.
func dayRange(vals []string) (lo, hi string, midnight, ok bool) {
	midnight = true
	for i, v := range vals {
		day, rest, _ := strings.Cut(v, " ")
		if _, err := time.Parse("2006-01-02", day); err != nil {
			return "", "", false, false
		}
		if strings.Trim(rest, "0:.") != "" {
			midnight = false
		}
		if i == 0 || day < lo {
			lo = day
		}
		if i == 0 || day > hi {
			hi = day
		}
	}
	return lo, hi, midnight, len(vals) > 0
}
