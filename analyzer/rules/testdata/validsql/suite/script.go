package suite

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// candidate is one SQL statement a mysqltest script sends to the server,
// before the result log says whether the server accepted it.
type candidate struct {
	File string // relative to the suite root, e.g. main/join.test
	Line int    // 1-based line of the statement's first line
	SQL  string // as sent: variables of eval substituted, delimiter removed
	// Echo is the text the result log shows for it: SQL with the
	// delimiter mysqltest appends.
	Echo string
	// ExpectErr is set when a --error directive precedes the statement:
	// the test expects (or allows) it to fail.
	ExpectErr bool
}

// scriptReader reads the mysqltest language far enough to find the
// statements a script sends: commands (a line starting with --, or a first
// word that is a mysqltest command) are interpreted or skipped, everything
// else up to the current delimiter is SQL.
type scriptReader struct {
	root  string            // suite root (the mysql-test folder)
	delim string            // current statement delimiter
	vars  map[string]string // values of let; a missing name is unresolved
	// pendingErr is set by --error and consumed by the next statement.
	pendingErr bool
	depth      int // --source nesting
	out        []candidate
}

func newScriptReader(root string) *scriptReader {
	return &scriptReader{root: root, delim: ";", vars: map[string]string{}}
}

// commands are the mysqltest command names (client/mysqltest.cc): a
// statement whose first word is one of them is a command, not SQL.
var commands = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`connection query connect sleep real_sleep inc dec source
		disconnect let echo while end system result require save_master_pos sync_with_master
		sync_slave_with_master error send reap dirty_close replace_result replace_column ping
		eval enable_query_log disable_query_log enable_result_log disable_result_log
		enable_connect_log disable_connect_log wait_for_slave_to_stop enable_warnings
		disable_warnings enable_info disable_info enable_session_track_info
		disable_session_track_info enable_metadata disable_metadata enable_column_names
		disable_column_names exec execw exec_in_background delimiter disable_abort_on_error
		enable_abort_on_error vertical_results horizontal_results query_vertical
		query_horizontal sorted_result lowercase_result start_timer end_timer character_set
		disable_ps_protocol enable_ps_protocol enable_ps2_protocol disable_ps2_protocol
		disable_view_protocol enable_view_protocol disable_service_connection
		enable_service_connection enable_non_blocking_api disable_non_blocking_api
		disable_reconnect enable_reconnect if disable_parsing enable_parsing replace_regex
		remove_file file_exists write_file copy_file perl die exit skip chmod append_file
		cat_file diff_files send_quit change_user mkdir rmdir list_files
		list_files_write_file list_files_append_file send_shutdown shutdown_server
		result_format move_file remove_files_wildcard copy_files_wildcard send_eval output
		reset_connection enable_prepare_warnings disable_prepare_warnings
		enable_cursor_protocol disable_cursor_protocol replace_numeric_round
		enable_sp_protocol disable_sp_protocol`) {
		commands[c] = true
	}
}

// readFile reads one script (a .test or a sourced .inc file).
func (r *scriptReader) readFile(rel string) error {
	b, err := os.ReadFile(filepath.Join(r.root, rel))
	if err != nil {
		return err
	}
	r.read(rel, string(b))
	return nil
}

func (r *scriptReader) read(rel, src string) {
	lineOf := lineIndex(src)
	skipping := false // between disable_parsing and enable_parsing
	pos := 0
	for {
		for pos < len(src) && isSpace(src[pos]) {
			pos++
		}
		if pos >= len(src) {
			return
		}
		rest := src[pos:]
		eol := strings.IndexByte(rest, '\n')
		if eol < 0 {
			eol = len(rest)
		}
		switch {
		case rest[0] == '#':
			pos += eol
			continue
		case rest[0] == '{' || rest[0] == '}':
			pos++
			continue
		case strings.HasPrefix(rest, "--"):
			line := strings.TrimSpace(rest[2:eol])
			pos += eol
			if line == "" || line[0] == '#' || line[0] == '-' || rest[2] == ' ' {
				continue // a comment
			}
			name, args := splitWord(line)
			if skipping {
				skipping = name != "enable_parsing"
				continue
			}
			if name == "disable_parsing" {
				skipping = true
				continue
			}
			pos = r.command(rel, lineOf(pos), src, pos, name, strings.TrimSpace(args))
			continue
		}
		word, _ := splitWord(rest[:eol])
		lw := strings.ToLower(word)
		if lw == "while" || lw == "if" {
			pos += eol // the block's statements are read like any other
			continue
		}
		text, end := r.untilDelimiter(src, pos)
		line := lineOf(pos)
		pos = min(len(src), end+len(r.delim))
		name, args := splitWord(strings.TrimSpace(text))
		lname := strings.ToLower(name)
		if skipping {
			skipping = lname != "enable_parsing"
			continue
		}
		if commands[lname] {
			if lname == "disable_parsing" {
				skipping = true
				continue
			}
			pos = r.command(rel, line, src, pos, lname, strings.TrimSpace(args))
			continue
		}
		r.statement(rel, line, text, false)
	}
}

// command runs one mysqltest command and returns where reading goes on:
// pos, or past the block the command owns (perl, write_file).
func (r *scriptReader) command(rel string, line int, src string, pos int, name, args string) int {
	switch name {
	case "delimiter":
		if f := strings.Fields(args); len(f) > 0 {
			r.delim = f[0]
		}
	case "error":
		// "--error 0" alone expects success; anything else allows a failure
		r.pendingErr = strings.TrimSpace(args) != "0"
	case "let":
		r.let(args)
	case "inc", "dec":
		v := strings.TrimPrefix(strings.TrimSpace(args), "$")
		if n, err := strconv.Atoi(r.vars[v]); err == nil {
			if name == "inc" {
				n++
			} else {
				n--
			}
			r.vars[v] = strconv.Itoa(n)
		}
	case "source":
		if r.depth < 8 {
			if p, ok := r.expand(args); ok {
				r.depth++
				_ = r.readFile(p) // a sourced file the package lacks is left out
				r.depth--
			}
		}
	case "eval", "query", "query_vertical", "query_horizontal":
		r.statement(rel, line, args, name == "eval")
	case "send", "send_eval", "reap":
		// a sent statement's outcome shows after reap: not checked here
		r.pendingErr = false
	case "perl", "write_file", "append_file":
		end := "EOF"
		f := strings.Fields(args)
		if name == "perl" && len(f) > 0 {
			end = f[0]
		} else if name != "perl" && len(f) > 1 {
			end = f[1]
		}
		// the block starts on the next line and ends at a line holding end
		if i := strings.IndexByte(src[pos:], '\n'); i >= 0 {
			pos += i + 1
		}
		for pos < len(src) {
			eol := strings.IndexByte(src[pos:], '\n')
			if eol < 0 {
				return len(src)
			}
			l := strings.TrimSpace(src[pos : pos+eol])
			pos += eol + 1
			if l == end {
				break
			}
		}
	}
	return pos
}

// untilDelimiter returns the text from pos up to the current delimiter
// (outside quotes, as mysqltest reads it) and the delimiter's offset.
func (r *scriptReader) untilDelimiter(src string, pos int) (string, int) {
	var quote byte
	for j := pos; j < len(src); j++ {
		c := src[j]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				j++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case strings.HasPrefix(src[j:], r.delim):
			return src[pos:j], j
		}
	}
	return src[pos:], len(src)
}

// lineIndex returns a function from an offset of src to its 1-based line.
func lineIndex(src string) func(int) int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(off int) int {
		return sort.SearchInts(starts, off+1)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

var varRef = regexp.MustCompile(`\\?\$([A-Za-z0-9_]+)`)

// expand substitutes $name references with let values; ok is false when
// one is unknown (an environment variable, a value computed by a query).
func (r *scriptReader) expand(s string) (string, bool) {
	ok := true
	out := varRef.ReplaceAllStringFunc(s, func(m string) string {
		if m[0] == '\\' {
			return m[1:] // \$ is a literal $
		}
		v, found := r.vars[m[1:]]
		if !found {
			ok = false
		}
		return v
	})
	return out, ok
}

// let records a variable; a value mysqltest computes (`query`, a
// function) leaves it unresolved.
func (r *scriptReader) let(args string) {
	name, val, found := strings.Cut(args, "=")
	if !found {
		return
	}
	name = strings.TrimPrefix(strings.TrimSpace(name), "$")
	val = strings.TrimLeft(val, " \t")
	if strings.HasPrefix(val, "`") || strings.Contains(val, "query_get_value(") {
		delete(r.vars, name)
		return
	}
	if v, ok := r.expand(val); ok {
		r.vars[name] = v
	} else {
		delete(r.vars, name)
	}
}

// statement records a statement sent to the server; eval substitutes
// variables first, and one with an unknown variable is left out.
func (r *scriptReader) statement(rel string, line int, text string, eval bool) {
	expectErr := r.pendingErr
	r.pendingErr = false
	if eval {
		var ok bool
		if text, ok = r.expand(text); !ok {
			return
		}
	}
	sql := strings.TrimSpace(text)
	if sql == "" {
		return
	}
	r.out = append(r.out, candidate{File: rel, Line: line, SQL: sql, Echo: sql + r.delim, ExpectErr: expectErr})
}

func splitWord(s string) (word, rest string) {
	i := strings.IndexAny(s, " \t\r\n(;")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}
