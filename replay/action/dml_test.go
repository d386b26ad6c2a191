package action

import "testing"

func TestSplitDML(t *testing.T) {
	for stmt, want := range map[string]chunkable{
		"DELETE FROM main1 WHERE id > 10;": {Verb: "DELETE", Table: "main1", Head: "DELETE FROM main1", Cond: "id > 10"},
		"delete low_priority from `db`.`t``x` where a = 'WHERE ' and (b or c)": {Verb: "DELETE", Schema: "db", Table: "t`x",
			Head: "delete low_priority from `db`.`t``x`", Cond: "a = 'WHERE ' and (b or c)"},
		"DELETE FROM t": {Verb: "DELETE", Table: "t", Head: "DELETE FROM t"},
		"UPDATE t SET a = (SELECT 1 LIMIT 1) WHERE b": {Verb: "UPDATE", Table: "t", Head: "UPDATE t SET a = (SELECT 1 LIMIT 1)", Cond: "b"},
		"UPDATE t SET a = 1, b = 2":                   {Verb: "UPDATE", Table: "t", Head: "UPDATE t SET a = 1, b = 2"},
		// Comments and hints are not read; an executable comment's
		// content is SQL to the server.
		"DELETE /*+ NO_ICP(t) */ FROM t -- WHERE x\n# LIMIT 1\nWHERE /* ORDER BY */ a": {Verb: "DELETE", Table: "t",
			Head: "DELETE /*+ NO_ICP(t) */ FROM t -- WHERE x\n# LIMIT 1", Cond: "/* ORDER BY */ a"},
		"DELETE /*!50000 QUICK */ FROM t WHERE a": {Verb: "DELETE", Table: "t", Head: "DELETE /*!50000 QUICK */ FROM t", Cond: "a"},
	} {
		got, err := splitDML(stmt)
		if err != nil || got != want {
			t.Errorf("%s:\n got %+v, %v\nwant %+v", stmt, got, err, want)
		}
	}
	c, _ := splitDML("DELETE FROM t WHERE a OR b")
	if q := c.withCond("id >= 1 AND id < 3"); q != "DELETE FROM t WHERE (a OR b) AND id >= 1 AND id < 3" {
		t.Errorf("withCond: %s", q)
	}
	for _, stmt := range []string{"UPDATE a, b SET a.x = b.x", "DELETE a FROM a JOIN b", "DELETE FROM t ORDER BY id", "UPDATE t JOIN u SET x = 1",
		"DELETE FROM t USING t, u", "DELETE FROM t WHERE", "UPDATE t", "DELETE FROM t WHERE a = 'x", "DELETE FROM t /* x"} {
		if _, err := splitDML(stmt); err == nil {
			t.Errorf("%s: no error", stmt)
		}
	}
}
