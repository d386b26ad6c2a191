package ingest

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// ReadGeneralLog reads a general query log of MySQL or MariaDB (the
// file, not the mysql.general_log table) and hands each Query and Execute
// to add; a Prepare is not a statement run (its Execute is). The log
// times no statement, so groups made of it rank by count. The default
// database of each connection is followed through Connect and Init DB.
func ReadGeneralLog(r io.Reader, name string, add func(Statement) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	dbs := map[string]string{} // connection id: database
	var (
		cur     *Statement
		sql     strings.Builder
		lineNo  int
		pending bool
	)
	finish := func() error {
		if !pending {
			return nil
		}
		pending = false
		cur.SQL = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sql.String()), ";"))
		sql.Reset()
		if cur.SQL == "" {
			return nil
		}
		return add(*cur)
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if isSlowBanner(line) {
			if err := finish(); err != nil {
				return err
			}
			continue
		}
		m := generalEntry.FindStringSubmatch(line)
		if m == nil {
			if pending { // a statement's next line
				sql.WriteByte('\n')
				sql.WriteString(line)
			}
			continue
		}
		if err := finish(); err != nil {
			return err
		}
		id, cmd, arg := m[1], m[2], m[3]
		switch cmd {
		case "Connect":
			if c := connectDB.FindStringSubmatch(arg); c != nil {
				dbs[id] = c[1]
			}
		case "Init DB":
			dbs[id] = strings.TrimSpace(arg)
		case "Query", "Execute":
			cur = &Statement{Database: dbs[id], Source: fmt.Sprintf("%s:%d", name, lineNo)}
			sql.WriteString(arg)
			pending = true
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, lineNo, err)
	}
	return finish()
}

var (
	// generalEntry is one entry: an optional time (MariaDB's 261207
	// 13:07:32, MySQL's 2026-12-07T13:07:32.123456Z), the connection id,
	// the command, a tab and the argument.
	generalEntry = regexp.MustCompile(`^(?:\d{6}\s+\d{1,2}:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?)?\s+(\d+)\s+(Connect|Query|Execute|Prepare|Init DB|Quit|Close stmt|Reset stmt|Long Data|Field List|Change user|Binlog Dump|Statistics|Ping|Shutdown|Refresh|Processlist|Kill|Debug|Set option|Fetch|Daemon|Error|Connect Out|Register Slave|Table Dump|Time|Delayed insert|Sleep|Create DB|Drop DB)\t?(.*)$`)
	// connectDB finds the database in a Connect's argument: MySQL's
	// "user@host on db using TCP/IP", MariaDB's "user@host as anonymous on db".
	connectDB = regexp.MustCompile(`\bon (\S+)(?: using|$)`)
)
