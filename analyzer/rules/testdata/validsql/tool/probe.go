package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// parseErrors are the server errors raised while a statement is parsed,
// before any name is resolved: a statement failing with another error
// (1146 no such table, 1054 unknown column, ...) was read by the
// server's parser.
var parseErrors = map[uint16]string{
	1064: "ER_PARSE_ERROR",
	1149: "ER_SYNTAX_ERROR",
	1221: "ER_WRONG_USAGE",
	1234: "ER_CANT_USE_OPTION_HERE",
	1235: "ER_NOT_SUPPORTED_YET",
}

// probeResult is what the server said when asked to prepare a statement.
type probeResult struct {
	ID      string `json:"id"`
	Code    uint16 `json:"code"` // 0: prepared
	Message string `json:"message,omitempty"`
}

func probe(args []string) error {
	fs := newFlagSet("probe", "probe -in FILE -dsn DSN [-mode protocol|sql] [-only RESULTS] [-o FILE]",
		"Asks a server to prepare each statement without executing it, in a read-only transaction, and counts the answers by error code: a parse error (1064 and the others of parseErrors) means the server's parser rejects the statement; any other error, or none, means it reads it.")
	in := fs.String("in", "", "the statements (extract's output)")
	dsn := fs.String("dsn", "", "Go MySQL DSN of the server; the statements' tables need not exist")
	mode := fs.String("mode", "protocol", "protocol: COM_STMT_PREPARE (the driver's Prepare); sql: SET @q, PREPARE s FROM @q, DEALLOCATE PREPARE s")
	only := fs.String("only", "", "probe only the statements with a syntax error in this lint -o output")
	out := fs.String("o", "", "write each answer here, as JSON lines")
	schema := fs.String("schema", "", "run the statements of this .sql file first (outside the transaction): CREATE TABLEs the statements name")
	readOnly := fs.Bool("read-only", true, "prepare inside START TRANSACTION READ ONLY (MariaDB then refuses to prepare writes with 1792, after parsing them)")
	list := fs.Int("list", 50, "print up to N statements the server's parser rejects")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stmts, err := readStatements(*in)
	if err != nil {
		return err
	}
	if *only != "" {
		if stmts, err = failedOnly(stmts, *only); err != nil {
			return err
		}
	}
	db, err := sql.Open("mysql", *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if *schema != "" {
		if err := runSchema(ctx, conn, *schema); err != nil {
			return err
		}
	}
	if *readOnly {
		if _, err := conn.ExecContext(ctx, "START TRANSACTION READ ONLY"); err != nil {
			return err
		}
		defer conn.ExecContext(ctx, "ROLLBACK")
	}
	results := make([]probeResult, len(stmts))
	byCode := map[uint16]int{}
	for i, s := range stmts {
		var err error
		if *mode == "sql" {
			err = prepareSQL(ctx, conn, s.SQL)
		} else {
			err = prepareProtocol(ctx, conn, s.SQL)
		}
		results[i] = probeResult{ID: s.ID}
		var me *mysql.MySQLError
		switch {
		case err == nil:
		case errors.As(err, &me):
			results[i].Code, results[i].Message = me.Number, me.Message
		default:
			return fmt.Errorf("%s: %w", s.ID, err)
		}
		byCode[results[i].Code]++
	}
	var codes []uint16
	for c := range byCode {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool { return byCode[codes[i]] > byCode[codes[j]] })
	where := "outside a transaction"
	if *readOnly {
		where = "in a read-only transaction"
	}
	fmt.Printf("%d statements prepared (%s) %s:\n", len(stmts), *mode, where)
	for _, c := range codes {
		kind := "read by the parser"
		if n, ok := parseErrors[c]; ok {
			kind = "parse error " + n
		} else if c == 0 {
			kind = "prepared"
		}
		fmt.Printf("  %5d  %-5d %s\n", byCode[c], c, kind)
	}
	n := 0
	for i, r := range results {
		if n < *list && (*only != "" || len(stmts) <= *list || parseErrors[r.Code] != "") {
			fmt.Printf("  %s: %d %s\n    %s\n", r.ID, r.Code, r.Message, oneLine(stmts[i].SQL, 300))
			n++
		}
	}
	if *out != "" {
		w, closeOut, err := create(*out)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return closeOut()
	}
	return nil
}

// prepareProtocol prepares with COM_STMT_PREPARE and closes the statement.
func prepareProtocol(ctx context.Context, conn *sql.Conn, q string) error {
	st, err := conn.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	return st.Close()
}

// prepareSQL prepares with the SQL statements PREPARE and DEALLOCATE.
func prepareSQL(ctx context.Context, conn *sql.Conn, q string) error {
	if _, err := conn.ExecContext(ctx, "SET @validsql_q = ?", q); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "PREPARE validsql_s FROM @validsql_q"); err != nil {
		return err
	}
	_, err := conn.ExecContext(ctx, "DEALLOCATE PREPARE validsql_s")
	return err
}

// failedOnly keeps the statements a lint -o output gives a syntax error.
func failedOnly(stmts []Statement, path string) ([]Statement, error) {
	res, err := readResults(path)
	if err != nil {
		return nil, err
	}
	failed := map[string]bool{}
	for _, r := range res {
		if r.Offset >= 0 {
			failed[r.ID] = true
		}
	}
	var out []Statement
	for _, s := range stmts {
		if failed[s.ID] {
			out = append(out, s)
		}
	}
	return out, nil
}

func readResults(path string) ([]result, error) {
	b, err := readAll(path)
	if err != nil {
		return nil, err
	}
	var out []result
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var r result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// runSchema runs the ;-separated statements of a .sql file, dropping the
// tables it creates first.
func runSchema(ctx context.Context, conn *sql.Conn, path string) error {
	b, err := readAll(path)
	if err != nil {
		return err
	}
	create := regexp.MustCompile(`(?i)^\s*CREATE\s+TABLE\s+(\S+)`)
	for _, q := range strings.Split(string(b), ";") {
		var lines []string
		for _, l := range strings.Split(q, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "--") {
				lines = append(lines, l)
			}
		}
		q = strings.TrimSpace(strings.Join(lines, "\n"))
		if q == "" {
			continue
		}
		if m := create.FindStringSubmatch(q); m != nil {
			if _, err := conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+m[1]); err != nil {
				return err
			}
		}
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}
