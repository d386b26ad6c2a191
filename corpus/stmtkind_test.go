package corpus

import (
	"slices"
	"testing"
)

// TestStatementKinds: every statement of a scenario is classified from its
// parse, placeholders, comments and executable comments included.
func TestStatementKinds(t *testing.T) {
	const params = "-- param m: table(main)\n-- param n: int(1,9)\n"
	tests := []struct {
		name, body string
		want       []StmtKind
	}{
		// plain reads
		{"select", "SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"join", "SELECT a.id FROM {{m}} AS a LEFT JOIN level1 ON a.l1_id = level1.id WHERE a.id > {{n}} LIMIT {{n}}", []StmtKind{StmtRead}},
		{"union", "SELECT id FROM {{m}} UNION ALL SELECT id FROM level1 WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"parenthesised", "(SELECT id FROM {{m}} WHERE id = {{n}})", []StmtKind{StmtRead}},
		{"cte select", "WITH c AS (SELECT id FROM {{m}} WHERE id = {{n}}) SELECT * FROM c", []StmtKind{StmtRead}},
		{"recursive cte", "WITH RECURSIVE c (x) AS (SELECT {{n}} UNION ALL SELECT x + 1 FROM c WHERE x < 5) SELECT x FROM c JOIN {{m}} ON id = x", []StmtKind{StmtRead}},
		{"subquery", "SELECT * FROM {{m}} WHERE id IN (SELECT l1_id FROM level1 WHERE id = {{n}})", []StmtKind{StmtRead}},
		{"table statement", "TABLE {{m}}; SELECT {{n}}", []StmtKind{StmtRead, StmtRead}},
		{"values statement", "VALUES ROW({{n}}), ROW(2); SELECT * FROM {{m}}", []StmtKind{StmtRead, StmtRead}},
		{"explain", "EXPLAIN SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"explain format", "EXPLAIN FORMAT=JSON SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"explain of an update does not run it", "EXPLAIN UPDATE {{m}} SET a = {{n}}", []StmtKind{StmtRead}},
		{"explain analyze select", "EXPLAIN ANALYZE SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"describe", "DESCRIBE {{m}}; SELECT {{n}}", []StmtKind{StmtRead, StmtRead}},
		{"show", "SHOW INDEX FROM {{m}}; SHOW STATUS LIKE 'Handler%'; SELECT {{n}}", []StmtKind{StmtRead, StmtRead, StmtRead}},
		{"do", "DO {{n}} + 1; SELECT * FROM {{m}}", []StmtKind{StmtRead, StmtRead}},
		{"hint", "SELECT /*+ BKA({{m}}) NO_ICP() */ * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"comments", "/* first */ SELECT -- the columns\n * FROM {{m}} # all\n WHERE id = {{n}} /* done */", []StmtKind{StmtRead}},
		{"executable comment in a read", "SELECT /*!40001 SQL_NO_CACHE */ * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"keyword in a string", "SELECT 'DROP TABLE x; DELETE' AS s FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"keyword in a comment", "SELECT * FROM {{m}} /* FOR UPDATE */ WHERE id = {{n}} -- INTO @x", []StmtKind{StmtRead}},

		// reads that are not plain
		{"for update", "SELECT * FROM {{m}} WHERE id = {{n}} FOR UPDATE", []StmtKind{StmtLockingRead}},
		{"for share", "SELECT * FROM {{m}} WHERE id = {{n}} FOR SHARE", []StmtKind{StmtLockingRead}},
		{"lock in share mode", "SELECT * FROM {{m}} WHERE id = {{n}} LOCK IN SHARE MODE", []StmtKind{StmtLockingRead}},
		{"skip locked", "SELECT * FROM {{m}} WHERE id = {{n}} FOR UPDATE SKIP LOCKED", []StmtKind{StmtLockingRead}},
		{"locking derived table", "SELECT * FROM (SELECT id FROM {{m}} WHERE id = {{n}} FOR UPDATE) AS d", []StmtKind{StmtLockingRead}},
		{"locking cte", "WITH c AS (SELECT id FROM {{m}} WHERE id = {{n}} FOR UPDATE) SELECT * FROM c", []StmtKind{StmtLockingRead}},
		{"locking union branch", "SELECT id FROM level1 UNION (SELECT id FROM {{m}} WHERE id = {{n}} FOR UPDATE)", []StmtKind{StmtLockingRead}},
		{"locking executable comment", "SELECT * FROM {{m}} WHERE id = {{n}} /*!50000 FOR UPDATE */", []StmtKind{StmtLockingRead}},
		{"explain analyze of a locking read", "EXPLAIN ANALYZE SELECT * FROM {{m}} WHERE id = {{n}} FOR UPDATE", []StmtKind{StmtLockingRead}},
		{"into outfile", "SELECT * FROM {{m}} WHERE id = {{n}} INTO OUTFILE '/tmp/x'", []StmtKind{StmtSelectInto}},
		{"into outfile after a union", "SELECT * FROM {{m}} WHERE id = {{n}} UNION SELECT * FROM level1 INTO OUTFILE '/tmp/x'", []StmtKind{StmtSelectInto}},
		// The parser reads neither INTO DUMPFILE nor INTO OUTFILE before
		// FROM: they are read as lint reads them (internal/sqlcompat).
		{"into dumpfile", "SELECT * FROM {{m}} WHERE id = {{n}} INTO DUMPFILE '/tmp/x'", []StmtKind{StmtSelectInto}},
		{"into outfile before from", "SELECT * INTO OUTFILE '/tmp/x' FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtSelectInto}},
		// INTO @var stores the row in the session's variables, which
		// writes nothing to the database: a read (the parser lacks it,
		// and it is read as lint reads it).
		{"into variable", "SELECT id INTO @x FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead}},
		{"into variable at the end", "SELECT id FROM {{m}} WHERE id = {{n}} INTO @x", []StmtKind{StmtRead}},
		{"into variables after a union", "SELECT id FROM {{m}} WHERE id = {{n}} UNION SELECT id FROM level1 INTO @x", []StmtKind{StmtRead}},
		// MariaDB's syntax the parser lacks, classified by what it does
		{"limit rows examined", "SELECT * FROM {{m}} WHERE id > {{n}} LIMIT 10 ROWS EXAMINED 1000", []StmtKind{StmtRead}},
		{"values without row", "SELECT * FROM {{m}} WHERE id IN (SELECT * FROM (VALUES ({{n}}), (2)) AS v)", []StmtKind{StmtRead}},

		// DML
		{"update", "UPDATE {{m}} SET a = 1 WHERE id = {{n}}", []StmtKind{StmtDML}},
		{"delete", "DELETE FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtDML}},
		{"insert", "INSERT INTO {{m}} (id) VALUES ({{n}})", []StmtKind{StmtDML}},
		{"insert select", "INSERT INTO level1 (id) SELECT id FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtDML}},
		{"replace", "REPLACE INTO {{m}} (id) VALUES ({{n}})", []StmtKind{StmtDML}},
		{"parenthesised first token", "(SELECT 1); UPDATE {{m}} SET a = {{n}}", []StmtKind{StmtRead, StmtDML}},
		{"cte update", "WITH c AS (SELECT id FROM level1) UPDATE {{m}} SET a = {{n}} WHERE id IN (SELECT id FROM c)", []StmtKind{StmtDML}},
		{"cte delete", "WITH c AS (SELECT id FROM level1) DELETE FROM {{m}} WHERE id = {{n}} AND id IN (SELECT id FROM c)", []StmtKind{StmtDML}},
		{"multi-table delete", "DELETE {{m}} FROM {{m}} JOIN level1 ON {{m}}.l1_id = level1.id WHERE level1.id = {{n}}", []StmtKind{StmtDML}},
		{"explain analyze runs the update", "EXPLAIN ANALYZE UPDATE {{m}} SET a = {{n}}", []StmtKind{StmtDML}},
		{"delete in an executable comment", "/*!50000 DELETE FROM {{m}} WHERE id = {{n}} */", []StmtKind{StmtDML}},
		{"delete in a MariaDB executable comment", "/*M!100100 DELETE FROM {{m}} WHERE id = {{n}} */", []StmtKind{StmtDML}},
		{"read then write", "SELECT * FROM {{m}} WHERE id = {{n}}; DELETE FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtRead, StmtDML}},
		{"delete returning", "DELETE FROM {{m}} WHERE id = {{n}} RETURNING id", []StmtKind{StmtDML}},
		{"insert select returning", "INSERT INTO level1 (id) SELECT id FROM {{m}} WHERE id = {{n}} RETURNING id", []StmtKind{StmtDML}},
		{"multi-table update with limit", "UPDATE {{m}}, level1 SET {{m}}.a = {{n}} WHERE {{m}}.l1_id = level1.id ORDER BY level1.id LIMIT 10", []StmtKind{StmtDML}},
		{"load data", "LOAD DATA INFILE '/tmp/x' INTO TABLE {{m}}; SELECT {{n}}", []StmtKind{StmtDML, StmtRead}},

		// DDL
		{"drop table", "DROP TABLE {{m}}; SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},
		{"truncate", "TRUNCATE TABLE {{m}}; SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},
		{"truncate without TABLE", "TRUNCATE {{m}}; SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},
		{"alter", "ALTER TABLE {{m}} ADD INDEX i (a); SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},
		{"create index", "CREATE INDEX i ON {{m}} (a); SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},
		{"rename", "RENAME TABLE {{m}} TO old; SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},
		{"create table as select", "CREATE TABLE t2 AS SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtDDL}},
		{"drop in a versioned executable comment", "/*!40101 DROP TABLE {{m}} */; SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},
		{"drop after a comment", "/* cleanup */ -- really\nDROP TABLE {{m}}; SELECT {{n}}", []StmtKind{StmtDDL, StmtRead}},

		// the rest
		{"set", "SET @x = {{n}}; SELECT * FROM {{m}}", []StmtKind{StmtSet, StmtRead}},
		{"set session", "SET SESSION optimizer_switch = 'bka=on'; SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtSet, StmtRead}},
		{"set transaction", "SET TRANSACTION ISOLATION LEVEL READ COMMITTED; SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtSet, StmtRead}},
		{"call", "CALL refresh_totals({{n}}); SELECT * FROM {{m}}", []StmtKind{StmtCall, StmtRead}},
		{"lock tables", "LOCK TABLES {{m}} READ; SELECT * FROM {{m}} WHERE id = {{n}}; UNLOCK TABLES", []StmtKind{StmtLockTables, StmtRead, StmtLockTables}},
		{"transaction", "START TRANSACTION; SELECT * FROM {{m}} WHERE id = {{n}}; COMMIT", []StmtKind{StmtTransaction, StmtRead, StmtTransaction}},
		{"use", "USE other; SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtOther, StmtRead}},
		{"analyze table", "ANALYZE TABLE {{m}}; SELECT {{n}}", []StmtKind{StmtOther, StmtRead}},
		{"prepare", "PREPARE s FROM 'DROP TABLE t'; EXECUTE s; SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtOther, StmtOther, StmtRead}},
		{"flush with read lock", "FLUSH TABLES WITH READ LOCK; SELECT * FROM {{m}} WHERE id = {{n}}", []StmtKind{StmtOther, StmtRead}},
		{"unparsed", "SELECT * FROM {{m}} WHERE id = {{n}} GARBLED GARBLED", []StmtKind{StmtUnparsed}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseFile("dir/x.sql", []byte(params+tc.body))
			if err != nil {
				t.Fatal(err)
			}
			var got []StmtKind
			for _, st := range s.Statements {
				got = append(got, st.Kind)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("kinds %v, want %v", got, tc.want)
			}
			var writes []StmtKind
			for _, k := range tc.want {
				if k != StmtRead && !slices.Contains(writes, k) {
					writes = append(writes, k)
				}
			}
			if w := s.Writes(); !slices.Equal(w, writes) {
				t.Errorf("Writes() = %v, want %v", w, writes)
			}
		})
	}
}

// TestOnlyReadIsPlainRead: every kind but StmtRead is refused by
// run --read-only.
func TestOnlyReadIsPlainRead(t *testing.T) {
	for _, k := range []StmtKind{StmtLockingRead, StmtSelectInto, StmtDML, StmtDDL, StmtSet, StmtCall,
		StmtLockTables, StmtTransaction, StmtOther, StmtUnparsed} {
		if k.PlainRead() {
			t.Errorf("%s is a plain read", k)
		}
	}
	if !StmtRead.PlainRead() {
		t.Error("read is not a plain read")
	}
}

// TestClassifyTextEdges: text with no statement, or with two (a `;` the
// loader does not cut at), is classified whole.
func TestClassifyTextEdges(t *testing.T) {
	for text, want := range map[string]StmtKind{
		"":                          StmtOther,
		"  ":                        StmtOther,
		"SELECT 1; DROP TABLE x":    StmtDDL,
		"SELECT 1; SELECT 2":        StmtRead,
		"SELECT":                    StmtUnparsed,
		"SELECT 1 FOR UPDATE; DO 1": StmtLockingRead,
	} {
		if got := classifyText(text); got != want {
			t.Errorf("classifyText(%q) = %s, want %s", text, got, want)
		}
	}
}
