package ingest

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DigestRow is one row of performance_schema's
// events_statements_summary_by_digest: a normalised statement (values are
// ?) with what the server counted of it. Times are the table's
// picoseconds made durations.
type DigestRow struct {
	Schema string
	Text   string // DIGEST_TEXT
	// Sample is QUERY_SAMPLE_TEXT (MySQL 8.0.3 and later), a statement
	// of the digest with its values; "" where the server keeps none
	// (MariaDB).
	Sample       string
	Count        int64
	Total, Max   time.Duration
	P95          time.Duration // QUANTILE_95 (MySQL 8.0.9 and later); 0 when absent
	RowsSent     int64
	RowsExamined int64
	Source       string // where the row was read: file:line or the server
}

// DigestColumns are the columns of the digest table the import reads,
// those every server has first: a query names them (with the optional
// ones the server has) and a dump file must hold the first four.
var DigestColumns = []string{"DIGEST_TEXT", "COUNT_STAR", "SUM_TIMER_WAIT", "MAX_TIMER_WAIT",
	"SCHEMA_NAME", "SUM_ROWS_SENT", "SUM_ROWS_EXAMINED", "QUANTILE_95", "QUERY_SAMPLE_TEXT"}

// ReadDigestTSV reads a dump of the digest table as `mysql -B -e 'SELECT
// ... FROM performance_schema.events_statements_summary_by_digest'`
// writes it: a header line of column names, then tab-separated rows with
// \t, \n and \\ escaped and NULL for a null. Columns are found by name, in
// any order; unknown columns are skipped.
func ReadDigestTSV(r io.Reader, name string, add func(DigestRow) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return fmt.Errorf("%s:1: empty: expected a header line naming the digest table's columns", name)
	}
	col := map[string]int{}
	for i, h := range strings.Split(sc.Text(), "\t") {
		col[strings.ToUpper(strings.TrimSpace(h))] = i
	}
	for _, need := range DigestColumns[:4] {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("%s:1: no column %s in the header (a dump of events_statements_summary_by_digest needs %s)", name, need, strings.Join(DigestColumns[:4], ", "))
		}
	}
	lineNo := 1
	for sc.Scan() {
		lineNo++
		fields := strings.Split(sc.Text(), "\t")
		get := func(c string) (string, bool) {
			i, ok := col[c]
			if !ok || i >= len(fields) || fields[i] == "NULL" {
				return "", false
			}
			return unescapeTSV(fields[i]), true
		}
		row, err := DigestFromColumns(get)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", name, lineNo, err)
		}
		row.Source = fmt.Sprintf("%s:%d", name, lineNo)
		if row.Text == "" {
			continue
		}
		if err := add(row); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, lineNo, err)
	}
	return nil
}

// DigestFromColumns makes a row of the values get returns for each of
// DigestColumns (false: absent or NULL), as read from a dump or a server.
func DigestFromColumns(get func(col string) (string, bool)) (DigestRow, error) {
	var row DigestRow
	row.Text, _ = get("DIGEST_TEXT")
	row.Schema, _ = get("SCHEMA_NAME")
	row.Sample, _ = get("QUERY_SAMPLE_TEXT")
	ints := []struct {
		col string
		to  *int64
	}{{"COUNT_STAR", &row.Count}, {"SUM_ROWS_SENT", &row.RowsSent}, {"SUM_ROWS_EXAMINED", &row.RowsExamined}}
	for _, f := range ints {
		if v, ok := get(f.col); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return row, fmt.Errorf("%s: %q is not a whole number", f.col, v)
			}
			*f.to = n
		}
	}
	pico := []struct {
		col string
		to  *time.Duration
	}{{"SUM_TIMER_WAIT", &row.Total}, {"MAX_TIMER_WAIT", &row.Max}, {"QUANTILE_95", &row.P95}}
	for _, f := range pico {
		if v, ok := get(f.col); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return row, fmt.Errorf("%s: %q is not a whole number of picoseconds", f.col, v)
			}
			*f.to = time.Duration(n / 1000)
		}
	}
	return row, nil
}

// digestSQL makes a digest text a statement the fingerprint reads: the
// (...) of a folded list becomes (?), the /* , ... */ of folded VALUES
// rows goes (a comment either way).
func digestSQL(text string) string {
	text = strings.ReplaceAll(text, "(...)", "(?)")
	// The digest writes a space between a function's name and its (,
	// which the servers read as an identifier (outside IGNORE_SPACE).
	return funcSpace.ReplaceAllStringFunc(text, func(m string) string {
		name := strings.TrimRight(m, " (")
		if isKeyword(strings.ToLower(name)) || notFunction[strings.ToLower(name)] {
			return m
		}
		return name + "("
	})
}

// funcSpace is a word, a space and a (: a call in a digest text, unless
// the word is a keyword.
var funcSpace = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]* \(`)

// notFunction are words besides the keywords that a ( may follow with a
// space in SQL as written.
var notFunction = map[string]bool{"using": true, "over": true, "any": true, "some": true, "lateral": true,
	"intersect": true, "except": true, "recursive": true, "key": true, "table": true}

// unescapeTSV reads the escapes of mysql -B output.
func unescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case '0':
				b.WriteByte(0)
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
