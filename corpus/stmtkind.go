package corpus

import (
	"sync"

	tidbparser "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions for the parser

	"github.com/joinbench/joinbench/internal/sqlcompat"
)

// StmtKind is what a statement does to the server, as its parse tells:
// whether it only reads, and if not, how it writes, locks or changes
// state. run --read-only runs only scenarios whose every statement is a
// StmtRead; run.json lists the others with their kinds; lint's rules
// use it to pick the statements they check.
type StmtKind string

const (
	// StmtRead is a plain read: SELECT (WITH ... SELECT, UNION, TABLE,
	// VALUES) with no locking clause and no INTO OUTFILE or DUMPFILE,
	// EXPLAIN of any statement without ANALYZE, DESCRIBE, SHOW and DO. A
	// SELECT ... INTO @var is a read: the session's variables are not
	// the database. Functions it calls are not looked into: a stored
	// function that writes is not seen.
	StmtRead StmtKind = "read"
	// StmtLockingRead is a SELECT ... FOR UPDATE, FOR SHARE or LOCK IN
	// SHARE MODE (at any level of the statement): it takes row locks.
	StmtLockingRead StmtKind = "locking-read"
	// StmtSelectInto is a SELECT ... INTO OUTFILE or DUMPFILE: it writes
	// what it reads to a file on the server.
	StmtSelectInto StmtKind = "select-into"
	// StmtDML changes rows: INSERT, REPLACE, UPDATE, DELETE (with or
	// without WITH, with or without MariaDB's RETURNING), LOAD DATA, and
	// EXPLAIN ANALYZE of any of them, which executes them.
	StmtDML StmtKind = "dml"
	// StmtDDL changes the schema: CREATE, ALTER, DROP, TRUNCATE, RENAME ...
	StmtDDL StmtKind = "ddl"
	// StmtSet is SET: session or global variables, names, transaction
	// characteristics.
	StmtSet StmtKind = "set"
	// StmtCall is CALL of a stored procedure, which may do anything.
	StmtCall StmtKind = "call"
	// StmtLockTables is LOCK TABLES or UNLOCK TABLES.
	StmtLockTables StmtKind = "lock-tables"
	// StmtTransaction is BEGIN, START TRANSACTION, COMMIT, ROLLBACK and
	// savepoints: in a scenario they end or split the transaction the run
	// wraps each event in.
	StmtTransaction StmtKind = "transaction"
	// StmtOther is any other statement the parser reads: USE, PREPARE and
	// EXECUTE, GRANT, FLUSH, ANALYZE TABLE, KILL ...
	StmtOther StmtKind = "other"
	// StmtUnparsed is a statement the parser cannot read, even with the
	// MySQL and MariaDB syntax it lacks rewritten (lint reports why):
	// nothing is known of what it does.
	StmtUnparsed StmtKind = "unparsed"
)

// PlainRead reports whether a statement of kind k only reads.
func (k StmtKind) PlainRead() bool { return k == StmtRead }

// ClassifyStmt returns the kind of one parsed statement. It is the one
// classification of statements: the scenario loader applies it to every
// statement it cuts, and lint's rules to the statements they parse.
func ClassifyStmt(st ast.StmtNode) StmtKind {
	switch s := st.(type) {
	case nil:
		return StmtUnparsed
	case *ast.SelectStmt, *ast.SetOprStmt:
		return classifyQuery(s)
	case *ast.ExplainStmt:
		// EXPLAIN ANALYZE executes the statement; EXPLAIN alone does not.
		if s.Analyze {
			if k := ClassifyStmt(s.Stmt); !k.PlainRead() {
				return k
			}
		}
		return StmtRead
	case *ast.ExplainForStmt, *ast.ShowStmt, *ast.DoStmt:
		return StmtRead
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt, *ast.LoadDataStmt,
		*ast.ImportIntoStmt, *ast.NonTransactionalDMLStmt:
		return StmtDML
	case *ast.SetStmt:
		return StmtSet
	case *ast.CallStmt:
		return StmtCall
	case *ast.LockTablesStmt, *ast.UnlockTablesStmt:
		// before DDLNode, which the parser's lock statements implement
		return StmtLockTables
	case *ast.BeginStmt, *ast.CommitStmt, *ast.RollbackStmt, *ast.SavepointStmt, *ast.ReleaseSavepointStmt:
		return StmtTransaction
	case ast.DDLNode:
		return StmtDDL
	}
	return StmtOther
}

// classifyQuery tells a plain read from a SELECT that locks or stores its
// rows anywhere in its tree (a derived table, a CTE, a UNION branch).
func classifyQuery(n ast.Node) StmtKind {
	v := &queryVisitor{kind: StmtRead}
	n.Accept(v)
	return v.kind
}

type queryVisitor struct{ kind StmtKind }

func (v *queryVisitor) Enter(n ast.Node) (ast.Node, bool) {
	if s, ok := n.(*ast.SelectStmt); ok {
		switch {
		case s.SelectIntoOpt != nil && s.SelectIntoOpt.Tp != ast.SelectIntoVars:
			v.kind = StmtSelectInto
			return n, true
		case s.LockInfo != nil && s.LockInfo.LockType != ast.SelectLockNone && v.kind == StmtRead:
			v.kind = StmtLockingRead
		}
	}
	return n, false
}

func (v *queryVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

var parserPool = sync.Pool{New: func() any { return tidbparser.New() }}

// classifyText parses the text of one statement as the loader cut it
// (placeholders replaced, executable comments opened) and returns its
// kind: that of its first statement that is not a plain read when the text
// holds several, StmtUnparsed when it does not parse, StmtOther when it
// holds no statement. Syntax of MySQL or MariaDB the parser lacks (INTO
// @var, DELETE ... RETURNING) is rewritten as lint rewrites it, whatever
// the server: what a statement does does not depend on who runs it.
func classifyText(text string) (kind StmtKind) {
	p := parserPool.Get().(*tidbparser.Parser)
	defer func() {
		// A parser that panicked is not reused; no input makes the
		// loader panic.
		if recover() != nil {
			kind = StmtUnparsed
			return
		}
		parserPool.Put(p)
	}()
	// The statements live in the parser's own slice, refilled by its next
	// Parse: they are classified before the parser goes back to the pool.
	stmts, _, err := p.Parse(text, "", "")
	var rw *sqlcompat.Result
	if err != nil {
		if rw = sqlcompat.Rewrite(text, sqlcompat.MariaDB); rw != nil {
			stmts, _, err = p.Parse(rw.Text, "", "")
		}
	}
	switch {
	case err != nil:
		return StmtUnparsed
	case len(stmts) == 0:
		return StmtOther
	}
	for _, st := range stmts {
		if k := ClassifyStmt(st); !k.PlainRead() {
			return k
		}
	}
	if rw != nil && rw.WritesFile() {
		return StmtSelectInto // the rewrite blanked its INTO OUTFILE
	}
	return StmtRead
}
