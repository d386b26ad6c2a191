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

// ReadSlowLog reads a slow query log of MySQL, MariaDB or Percona Server
// and hands each statement to add. name is the file's name, for the
// statements' Source. Every "# Key: value" field of an entry's header is
// read the same way, so that the fields of MySQL's log_slow_extra (Errno,
// Bytes_sent, Start, End ...), MariaDB's log_slow_verbosity (Thread_id,
// Schema, QC_hit, Full_scan, explain lines ...) and Percona's extended
// verbosity are understood or skipped without a rule per version; only
// Query_time, Rows_sent, Rows_examined and Schema are used. The server's
// banner lines (written at start and at every log rotation), `use db;`
// and `SET timestamp=N;` lines and `# administrator command` entries are
// not statements.
func ReadSlowLog(r io.Reader, name string, add func(Statement) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	var (
		cur     Statement
		sql     strings.Builder
		inSQL   bool
		lineNo  int
		db      string // the database of the connection, as the last `use` said
		started int    // line of the statement's first line
	)
	finish := func() error {
		text := strings.TrimSpace(sql.String())
		text = strings.TrimSpace(strings.TrimSuffix(text, ";"))
		sql.Reset()
		inSQL = false
		if text == "" {
			cur = Statement{}
			return nil
		}
		cur.SQL = text
		if cur.Database == "" {
			cur.Database = db
		}
		cur.Source = fmt.Sprintf("%s:%d", name, started)
		st := cur
		cur = Statement{}
		return add(st)
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		switch {
		case isSlowBanner(line):
			if err := finish(); err != nil {
				return err
			}
			continue
		case strings.HasPrefix(line, "# Time:") || strings.HasPrefix(line, "# User@Host:"):
			if err := finish(); err != nil {
				return err
			}
			readSlowFields(line, &cur)
			continue
		case !inSQL && strings.HasPrefix(line, "#"):
			if strings.HasPrefix(line, "# administrator command:") {
				cur = Statement{}
				continue
			}
			readSlowFields(line, &cur)
			continue
		case !inSQL && useLine.MatchString(line):
			db = unquoteIdent(useLine.FindStringSubmatch(line)[1])
			continue
		case !inSQL && setTimestamp.MatchString(line):
			continue
		}
		if !inSQL {
			inSQL, started = true, lineNo
		}
		sql.WriteString(line)
		sql.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, lineNo, err)
	}
	return finish()
}

var (
	useLine      = regexp.MustCompile("^(?i)use\\s+(`[^`]+`|\\S+?)\\s*;\\s*$")
	setTimestamp = regexp.MustCompile(`^(?i)SET\s+timestamp\s*=\s*\d+\s*;\s*$`)
)

// isSlowBanner reports the lines a server writes at the top of its slow
// and general logs when it opens them.
func isSlowBanner(line string) bool {
	return strings.Contains(line, ", Version: ") && strings.Contains(line, "started with:") ||
		strings.HasPrefix(line, "Tcp port: ") ||
		strings.HasPrefix(line, "Time") && strings.Contains(line, "Id Command") && strings.Contains(line, "Argument")
}

// readSlowFields reads the "Key: value" pairs of a header line.
func readSlowFields(line string, st *Statement) {
	if strings.HasPrefix(line, "# User@Host:") || strings.HasPrefix(line, "# explain:") {
		return
	}
	fields := strings.Fields(strings.TrimLeft(line, "# "))
	for i := 0; i+1 < len(fields); i++ {
		key, ok := strings.CutSuffix(fields[i], ":")
		if !ok {
			continue
		}
		val := fields[i+1]
		if strings.HasSuffix(val, ":") { // an empty value: MariaDB's "Schema:   QC_hit: No"
			continue
		}
		switch strings.ToLower(key) {
		case "query_time":
			if f, err := strconv.ParseFloat(val, 64); err == nil {
				st.Time = time.Duration(f * float64(time.Second))
				st.HasTime = true
			}
		case "rows_sent":
			st.RowsSent, _ = strconv.ParseInt(val, 10, 64)
		case "rows_examined":
			st.RowsExamined, _ = strconv.ParseInt(val, 10, 64)
		case "schema":
			st.Database = val
		}
	}
}

// unquoteIdent removes the backquotes of a quoted identifier.
func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}
