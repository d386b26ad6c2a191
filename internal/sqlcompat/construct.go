package sqlcompat

// Construct is one piece of MySQL-family syntax the TiDB parser cannot
// read.
type Construct struct {
	// Name says what it is, for messages: "DELETE ... RETURNING".
	Name string
	// MariaDB marks syntax only MariaDB accepts: MySQL 8 rejects it as
	// the TiDB parser does. The others are valid on both.
	MariaDB bool
	// WritesFile marks INTO OUTFILE and INTO DUMPFILE, which the rewrite
	// removes: the statement writes a file on the server.
	WritesFile bool
}

// The constructs Rewrite knows, in the order it looks for them.
var (
	LimitRowsExamined  = &Construct{Name: "LIMIT ... ROWS EXAMINED", MariaDB: true}
	MatchColumns       = &Construct{Name: "MATCH without brackets around its columns"}
	MatchCompared      = &Construct{Name: "MATCH ... AGAINST compared without brackets"}
	ValuesWithoutRow   = &Construct{Name: "a table value constructor VALUES (...) without ROW", MariaDB: true}
	WithinGroup        = &Construct{Name: "PERCENTILE_CONT/PERCENTILE_DISC ... WITHIN GROUP", MariaDB: true}
	MedianOver         = &Construct{Name: "MEDIAN(...) OVER", MariaDB: true}
	IntoVariables      = &Construct{Name: "SELECT ... INTO @variable"}
	IntoFile           = &Construct{Name: "SELECT ... INTO OUTFILE/DUMPFILE", WritesFile: true}
	LikeExpression     = &Construct{Name: "a LIKE pattern with an operator", MariaDB: true}
	Returning          = &Construct{Name: "DELETE/INSERT ... RETURNING", MariaDB: true}
	ReservedName       = &Construct{Name: "a word MySQL 8 reserves used as a name", MariaDB: true}
	WindowOffset       = &Construct{Name: "LEAD/LAG/NTH_VALUE/NTILE with an expression argument", MariaDB: true}
	MultiUpdateLimit   = &Construct{Name: "multi-table UPDATE with ORDER BY or LIMIT", MariaDB: true}
	HavingWithoutTable = &Construct{Name: "HAVING in a SELECT without a table"}
	CycleRestrict      = &Construct{Name: "a recursive CTE's CYCLE ... RESTRICT", MariaDB: true}
	ValueFunction      = &Construct{Name: "VALUE(column)", MariaDB: true}
	EscapeExpression   = &Construct{Name: "LIKE ... ESCAPE with a number or an expression"}
	NaturalInner       = &Construct{Name: "NATURAL INNER JOIN"}
	NaturalStraight    = &Construct{Name: "NATURAL STRAIGHT_JOIN", MariaDB: true}
	CastType           = &Construct{Name: "CAST ... AS VARCHAR/INT", MariaDB: true}
	ExcludeNoOthers    = &Construct{Name: "a window frame's EXCLUDE NO OTHERS", MariaDB: true}
	AliasEquals        = &Construct{Name: "a table alias written with =", MariaDB: true}
	DynamicColumns     = &Construct{Name: "COLUMN_GET/COLUMN_CREATE/COLUMN_ADD ... AS type", MariaDB: true}
	LastValueList      = &Construct{Name: "LAST_VALUE(expr, expr, ...) outside a window", MariaDB: true}
	PortionOf          = &Construct{Name: "DELETE/UPDATE ... FOR PORTION OF", MariaDB: true}
	CharsetIntroducer  = &Construct{Name: "a character set introducer the TiDB parser lacks"}
	OffsetFetch        = &Construct{Name: "OFFSET ... ROWS / FETCH FIRST ... ROWS", MariaDB: true}
	SystemTime         = &Construct{Name: "FOR SYSTEM_TIME (system-versioned tables)", MariaDB: true}
	JSONTable          = &Construct{Name: "JSON_TABLE"}
)
