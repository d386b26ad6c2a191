package ddl

import (
	"reflect"
	"testing"
)

// The model of the built-in schema is parsed once per kind of table and
// copied under the other names: it must equal the model of each table's
// own rendered DDL, whatever the options.
func TestBuiltinSchemaEqualsEachTablesDDL(t *testing.T) {
	for _, opts := range []SchemaOptions{
		{Tables: 3},
		{Tables: 4, TableName: "sbtest", Engine: "MyISAM", NoPrimaryKey: true, ClientIDs: true},
	} {
		s, err := BuiltinSchema(opts)
		if err != nil {
			t.Fatal(err)
		}
		tabs, err := BuiltinTables(opts)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := opts.Normalize()
		for i, bt := range tabs {
			p, err := ParseSchema(bt.Create)
			if err != nil {
				t.Fatal(err)
			}
			want := p.Table(bt.Name)
			if i < n.Tables {
				want.Family = n.TableName
			}
			want.Options = n.TableOptions
			got := s.Table(bt.Name)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%+v: %s: model\n  %+v\nwant the parse of its DDL\n  %+v", opts, bt.Name, got, want)
			}
		}
		if len(s.Tables()) != len(tabs) {
			t.Errorf("%+v: %d tables in the model, %d rendered", opts, len(s.Tables()), len(tabs))
		}
	}
}
