package ingest

import (
	"regexp"
	"slices"
	"strings"

	"github.com/joinbench/joinbench/internal/sqllex"
)

// Filter chooses the statements an import keeps. Whatever it says, a
// statement that may carry a password is dropped, and so are statements
// that read no table or only the server's own schemas.
type Filter struct {
	// Tables keeps the statements that name at least one of these tables
	// (case-insensitive); empty keeps any.
	Tables []string
	// JoinsOnly keeps the statements that read two tables or more.
	JoinsOnly bool
	// Writes keeps INSERT, UPDATE, DELETE and REPLACE (left out by
	// default: an imported corpus replays reads unless told otherwise).
	Writes bool
	// Database, when set, keeps only the statements whose default
	// database the source names as this one (or names none): the others
	// run on tables the schema read does not describe.
	Database string
}

// Reasons a statement is left out, as the import's summary counts them.
const (
	SkipPassword = "may carry a password"
	SkipWrite    = "writes (give --writes to keep them)"
	SkipNoTable  = "reads no table"
	SkipSystem   = "reads the server's own schemas"
	SkipNotJoin  = "not a join (--joins-only)"
	SkipTables   = "names none of --tables"
	SkipDatabase = "ran in another database"
)

// passwordish are the statements that may carry a password in clear:
// they are dropped whole, so that no part of them reaches a scenario, a
// value list or a result.
var passwordish = regexp.MustCompile(`(?is)\bIDENTIFIED\b|\bPASSWORD\b|\b(CREATE|ALTER|DROP|RENAME)\s+USER\b|\bGRANT\b|\b(MASTER|SOURCE)_(PASSWORD|SSL_KEY)\b|\bCHANGE\s+(MASTER|REPLICATION)\b|\bSTART\s+(SLAVE|REPLICA)\b.*\bPASSWORD\b|\bAES_(EN|DE)CRYPT\b|\bDES_(EN|DE)CRYPT\b|\bENCODE\s*\(|\bDECODE\s*\(`)

// passwordWords are words one of which every passwordish statement
// holds: most statements hold none, and skip the regular expression.
var passwordWords = []string{"identified", "password", "user", "grant", "master", "source", "crypt", "encode", "decode", "replica", "slave"}

// mayCarryPassword reports a statement that may carry a password.
func mayCarryPassword(sql string) bool {
	lower := strings.ToLower(sql)
	for _, w := range passwordWords {
		if strings.Contains(lower, w) {
			return passwordish.MatchString(sql)
		}
	}
	return false
}

// systemSchemas are the server's own databases.
var systemSchemas = []string{"information_schema", "performance_schema", "mysql", "sys"}

// skipDatabase says why a statement of database db is left out, or "".
func (f *Filter) skipDatabase(db string) string {
	if f.Database != "" && db != "" && !strings.EqualFold(db, f.Database) {
		return SkipDatabase
	}
	return ""
}

// skip says why a statement's text is left out, or "".
func (f *Filter) skip(sql string) string {
	if mayCarryPassword(sql) {
		return SkipPassword
	}
	switch w := firstWord(sql); w {
	case "select", "with", "(":
		return ""
	case "insert", "update", "delete", "replace":
		if !f.Writes {
			return SkipWrite
		}
		return ""
	case "":
		return "empty"
	default:
		return strings.ToUpper(w)
	}
}

// skipShape says why a statement taken apart is left out, or "".
func (f *Filter) skipShape(sh *Shape) string {
	refs := tableRefs(sh.toks)
	var names []string
	for _, r := range refs {
		if r.table == "" { // a derived table
			continue
		}
		if slices.Contains(systemSchemas, r.schema) {
			return SkipSystem
		}
		names = append(names, r.table)
	}
	switch {
	case len(names) == 0:
		return SkipNoTable
	case f.JoinsOnly && len(refs) < 2:
		return SkipNotJoin
	case len(f.Tables) > 0 && !slices.ContainsFunc(names, func(n string) bool {
		return slices.ContainsFunc(f.Tables, func(t string) bool { return strings.EqualFold(t, n) })
	}):
		return SkipTables
	}
	return ""
}

// firstWord is the first keyword of a statement, lower case, past
// comments; "(" for a statement that opens with a parenthesis.
func firstWord(sql string) string {
	sc := sqllex.NewScanner(sql, 0)
	for {
		t := sc.NextNonSpace()
		switch t.Kind {
		case sqllex.EOF:
			return ""
		case sqllex.LineComment, sqllex.BlockComment, sqllex.ExecStart, sqllex.ExecEnd:
			continue
		case sqllex.Word:
			return strings.ToLower(t.Text(sql))
		default:
			return t.Text(sql)
		}
	}
}
