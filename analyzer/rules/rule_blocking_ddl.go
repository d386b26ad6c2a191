package rules

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

// BlockingDDL reports schema changes that block writes: ALTER TABLE and
// CREATE INDEX that can run neither INSTANT nor INPLACE with LOCK=NONE,
// and, on a Galera/PXC cluster, any DDL (it runs under total order
// isolation: every node stops for it).
var BlockingDDL = &analyzer.Analyzer{
	Name: "blocking-ddl",
	Doc: "ALTER TABLE and CREATE INDEX must be able to run online (INSTANT, or INPLACE with LOCK=NONE); on Galera/PXC every DDL blocks the cluster. " +
		"Use pt-online-schema-change (or gh-ost, outside Galera).",
	Explanation: analyzer.Explanation{
		Text:  "DDL that copies or locks the table blocks the workload it runs next to; on Galera/PXC every DDL blocks the whole cluster (TOI).",
		Wrong: "ALTER TABLE main1 ADD INDEX idx_color (color);",
		Right: "ALTER TABLE main1 ADD INDEX idx_color (color), ALGORITHM=INPLACE, LOCK=NONE;",
	},
	Severity: analyzer.Warning,
	Run: func(p *analyzer.Pass) {
		offs := p.StmtOffsets()
		tool := "pt-online-schema-change or gh-ost"
		if p.Flavor.Galera {
			tool = "pt-online-schema-change (gh-ost does not support Galera)"
		}
		for i, st := range p.Stmts {
			var why []string
			switch s := st.(type) {
			case *ast.AlterTableStmt:
				why = alterBlocks(p.Schema, s)
			case *ast.CreateIndexStmt:
				if s.KeyType == ast.IndexKeyTypeFulltext || s.KeyType == ast.IndexKeyTypeSpatial {
					why = []string{"a FULLTEXT or SPATIAL index is built with LOCK=SHARED"}
				}
				if s.LockAlg != nil && (s.LockAlg.LockTp == ast.LockTypeShared || s.LockAlg.LockTp == ast.LockTypeExclusive) {
					why = append(why, "it asks for LOCK="+strings.ToUpper(s.LockAlg.LockTp.String()))
				}
				if s.LockAlg != nil && s.LockAlg.AlgorithmTp == ast.AlgorithmTypeCopy {
					why = append(why, "it asks for ALGORITHM=COPY")
				}
			}
			if len(why) > 0 {
				p.Reportf(offs[i], "%s blocks writes to the table while it runs: %s; use %s", ddlName(st), strings.Join(why, "; "), tool)
				continue
			}
			if p.Flavor.Galera && corpus.ClassifyStmt(st) == corpus.StmtDDL {
				p.Reportf(offs[i], "%s on a Galera/PXC cluster runs under total order isolation: every node stops writing until it ends; use %s, or a rolling schema upgrade", ddlName(st), tool)
			}
		}
	},
}

func ddlName(st ast.StmtNode) string {
	switch st.(type) {
	case *ast.AlterTableStmt:
		return "ALTER TABLE"
	case *ast.CreateIndexStmt:
		return "CREATE INDEX"
	case *ast.DropIndexStmt:
		return "DROP INDEX"
	case *ast.CreateTableStmt:
		return "CREATE TABLE"
	case *ast.DropTableStmt:
		return "DROP TABLE"
	case *ast.TruncateTableStmt:
		return "TRUNCATE TABLE"
	case *ast.RenameTableStmt:
		return "RENAME TABLE"
	}
	return "this DDL"
}

// alterBlocks explains why an ALTER TABLE cannot run online, or nil.
func alterBlocks(schema *ddl.Schema, s *ast.AlterTableStmt) []string {
	var why []string
	var table *ddl.Table
	if s.Table != nil {
		table = schema.Table(s.Table.Name.O)
	}
	addsPK := false
	for _, sp := range s.Specs {
		if sp.Tp == ast.AlterTableAddConstraint && sp.Constraint != nil && sp.Constraint.Tp == ast.ConstraintPrimaryKey {
			addsPK = true
		}
	}
	for _, sp := range s.Specs {
		switch sp.Tp {
		case ast.AlterTableModifyColumn, ast.AlterTableChangeColumn:
			for _, nc := range sp.NewColumns {
				name := nc.Name.Name.O
				if sp.OldColumnName != nil {
					name = sp.OldColumnName.Name.O
				}
				if msg := typeChange(table, name, nc); msg != "" {
					why = append(why, msg)
				}
			}
		case ast.AlterTableAddConstraint:
			if c := sp.Constraint; c != nil {
				switch c.Tp {
				case ast.ConstraintFulltext:
					why = append(why, "a FULLTEXT index is built with LOCK=SHARED")
				case ast.ConstraintForeignKey:
					why = append(why, "adding a foreign key with foreign_key_checks=1 copies the table")
				}
				if c.Tp == ast.ConstraintIndex && c.Option != nil && c.Option.Tp == ast.IndexTypeRtree {
					why = append(why, "a SPATIAL index is built with LOCK=SHARED")
				}
			}
		case ast.AlterTableDropPrimaryKey:
			if !addsPK {
				why = append(why, "dropping the primary key without adding one copies the table")
			}
		case ast.AlterTableOption:
			for _, o := range sp.Options {
				if o.Tp == ast.TableOptionCharset && o.UintValue == ast.TableOptionCharsetWithConvertTo {
					why = append(why, "CONVERT TO CHARACTER SET copies the table")
				}
			}
		case ast.AlterTableAlgorithm:
			if sp.Algorithm == ast.AlgorithmTypeCopy {
				why = append(why, "it asks for ALGORITHM=COPY")
			}
		case ast.AlterTableLock:
			if sp.LockType == ast.LockTypeShared || sp.LockType == ast.LockTypeExclusive {
				why = append(why, "it asks for LOCK="+strings.ToUpper(sp.LockType.String()))
			}
		case ast.AlterTablePartition, ast.AlterTableRemovePartitioning, ast.AlterTableCoalescePartitions,
			ast.AlterTableReorganizePartition, ast.AlterTableExchangePartition:
			why = append(why, "repartitioning copies the table")
		}
	}
	return why
}

// typeChange says why changing a column's definition needs a table copy.
func typeChange(table *ddl.Table, name string, nc *ast.ColumnDef) string {
	if nc.Tp == nil {
		return ""
	}
	newBase := strings.ToLower(typeBase(nc.Tp.GetType()))
	if table == nil {
		return fmt.Sprintf("changing column %s's type (%s) copies the table unless only its name, default or VARCHAR length within the same length bytes changes", name, strings.ToUpper(newBase))
	}
	old := table.Column(name)
	if old == nil {
		return ""
	}
	newLen := nc.Tp.GetFlen()
	switch {
	case old.Type.Base != newBase:
		return fmt.Sprintf("changing column %s from %s to %s copies the table", name, strings.ToUpper(old.Type.Base), strings.ToUpper(newBase))
	case newBase == "varchar" && newLen > 0 && (newLen < old.Type.Length || old.Type.Length < 256 && newLen >= 256):
		return fmt.Sprintf("changing VARCHAR(%d) to VARCHAR(%d) copies the table (shrinking, or crossing 255 bytes, changes the length prefix)", old.Type.Length, newLen)
	case newBase != "varchar" && newLen > 0 && old.Type.Length > 0 && newLen != old.Type.Length:
		return fmt.Sprintf("changing the length of %s %s copies the table", strings.ToUpper(newBase), name)
	case (newBase == "enum" || newBase == "set") && !membersAppended(old.Type.Members, nc.Tp.GetElems()):
		return fmt.Sprintf("changing %s members other than by appending copies the table", strings.ToUpper(newBase))
	}
	return ""
}

func membersAppended(old, now []string) bool {
	if len(now) < len(old) {
		return false
	}
	for i := range old {
		if !strings.EqualFold(old[i], now[i]) {
			return false
		}
	}
	return true
}

func typeBase(tp byte) string {
	switch tp {
	case mysql.TypeTiny:
		return "tinyint"
	case mysql.TypeShort:
		return "smallint"
	case mysql.TypeInt24:
		return "mediumint"
	case mysql.TypeLong:
		return "int"
	case mysql.TypeLonglong:
		return "bigint"
	case mysql.TypeNewDecimal:
		return "decimal"
	case mysql.TypeFloat:
		return "float"
	case mysql.TypeDouble:
		return "double"
	case mysql.TypeVarchar, mysql.TypeVarString:
		return "varchar"
	case mysql.TypeString:
		return "char"
	case mysql.TypeBlob, mysql.TypeTinyBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		return "text"
	case mysql.TypeDate:
		return "date"
	case mysql.TypeDatetime:
		return "datetime"
	case mysql.TypeTimestamp:
		return "timestamp"
	case mysql.TypeYear:
		return "year"
	case mysql.TypeEnum:
		return "enum"
	case mysql.TypeSet:
		return "set"
	case mysql.TypeJSON:
		return "json"
	case mysql.TypeBit:
		return "bit"
	}
	return "other"
}
