// Package analyzertest holds what the analyzer packages' tests share:
// a schema built by hand, so that they depend on nothing else.
package analyzertest

import (
	"strconv"

	"github.com/joinbench/joinbench/ddl"
)

// Schema is the reference workload's schema with two main tables,
// built by hand so that the analyzer's tests depend on nothing else.
func Schema() *ddl.Schema {
	s := ddl.NewSchema()
	col := func(name, base string, length int, members ...string) *ddl.Column {
		return &ddl.Column{Name: name, Type: ddl.Type{Base: base, Length: length, Members: members}}
	}
	ix := func(name string, cols ...string) *ddl.Index { return &ddl.Index{Name: name, Columns: cols} }
	for n := 1; n <= 2; n++ {
		t := &ddl.Table{Name: "main" + strconv.Itoa(n), Family: "main", Engine: "InnoDB"}
		t.Columns = []*ddl.Column{col("id", "bigint", 0)}
		for k := 1; k <= 5; k++ {
			t.Columns = append(t.Columns, col("l"+strconv.Itoa(k)+"_id", "int", 0))
		}
		t.Columns = append(t.Columns,
			col("small_number", "smallint", 0), col("integer_number", "int", 0), col("myvalue", "bigint", 0),
			&ddl.Column{Name: "decimal_number", Type: ddl.Type{Base: "decimal", Length: 10, Decimals: 2}},
			col("float_number", "float", 0), col("char_field", "char", 10), col("varchar_field", "varchar", 255),
			col("color", "varchar", 50), col("continent", "varchar", 255), col("uuid", "varchar", 36),
			col("uuid_bin", "binary", 16), col("text_field", "text", 0), col("datetime_field", "datetime", 0),
			col("timestamp_field", "timestamp", 0), col("year_field", "year", 0), col("binary_field", "binary", 50),
			col("varbinary_field", "varbinary", 255), col("enum_field", "enum", 0, "active", "inactive", "pending"),
			col("set_field", "set", 0, "read", "write", "execute", "delete"), col("is_active", "tinyint", 0))
		pk := &ddl.Index{Name: "PRIMARY", Columns: []string{"id"}, Primary: true, Unique: true}
		t.PrimaryKey = pk
		t.Indexes = []*ddl.Index{pk, {Name: "unique_varchar", Columns: []string{"uuid"}, Unique: true}}
		for k := 1; k <= 5; k++ {
			t.Indexes = append(t.Indexes, ix("idx_l"+strconv.Itoa(k)+"_id", "l"+strconv.Itoa(k)+"_id"))
		}
		t.Indexes = append(t.Indexes, ix("idx_date", "datetime_field"), ix("idx_time", "timestamp_field"),
			ix("idx_enum_field", "enum_field"), ix("idx_set_field", "set_field"), ix("idx_year_field", "year_field"),
			ix("comp_attributes", "continent", "enum_field", "set_field"), ix("comp_color", "color", "continent", "enum_field", "year_field"))
		s.Add(t)
	}
	for n := 1; n <= 5; n++ {
		t := &ddl.Table{Name: "level" + strconv.Itoa(n), Family: "level" + strconv.Itoa(n), Engine: "InnoDB"}
		t.Columns = []*ddl.Column{col("id", "bigint", 0), col("continent", "varchar", 45), col("parent_id", "bigint", 0), col("time_accessed", "timestamp", 0)}
		for k := 1; k <= 5; k++ {
			t.Columns = append(t.Columns, col("l"+strconv.Itoa(k)+"_id", "int", 0))
		}
		t.Columns = append(t.Columns, col("record_name", "char", 36), col("record_code", "char", 5), col("record_value", "bigint", 0),
			col("record_status", "enum", 0, "active", "inactive", "pending"), col("record_priority", "int", 0))
		pk := &ddl.Index{Name: "PRIMARY", Columns: []string{"id"}, Primary: true, Unique: true}
		t.PrimaryKey = pk
		t.Indexes = []*ddl.Index{pk, ix("idx_country", "continent"), ix("idx_parent_id", "parent_id")}
		for k := 1; k <= 5; k++ {
			t.Indexes = append(t.Indexes, ix("idx_l"+strconv.Itoa(k)+"_id", "l"+strconv.Itoa(k)+"_id"))
		}
		t.Indexes = append(t.Indexes, ix("idx_time_accessed", "time_accessed"), ix("idx_record_status", "record_status"),
			ix("idx_record_priority", "record_priority"), ix("comp_record_continent_status_priority", "continent", "record_status", "record_priority"))
		s.Add(t)
	}
	return s
}
