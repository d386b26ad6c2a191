package explain

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestAccesses(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"mariadb_left_bnl.json", "1 m ref comp; 1 level1 ALL"},
		{"mysql8_derived_semijoin.json", "1 m ALL; 2 main1 ref comp_attributes; 1 l1 eq_ref PRIMARY; 1 x ref idx_l1_id"},
	} {
		b, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		acc, err := Accesses(string(b))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		var got []string
		for _, a := range acc {
			got = append(got, strings.TrimSpace(fmt.Sprintf("%d %s %s %s", a.SelectID, a.Table, a.Type, strings.Join(a.Keys, ","))))
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.file, g, tc.want)
		}
	}
}

// An index merge reads several indexes: MySQL names them in the key,
// MariaDB in an index_merge object.
func TestAccessesIndexMerge(t *testing.T) {
	mysql := `{"query_block": {"select_id": 1, "table": {"table_name": "m", "access_type": "index_merge", "key": "union(idx_l1_id,idx_l2_id)"}}}`
	maria := `{"query_block": {"select_id": 1, "table": {"table_name": "m", "access_type": "index_merge",
	  "index_merge": {"sort_union": [{"range": {"key": "idx_l1_id"}}, {"range": {"key": "idx_l2_id"}}]}}}}`
	for _, plan := range []string{mysql, maria} {
		acc, err := Accesses(plan)
		if err != nil {
			t.Fatal(err)
		}
		if len(acc) != 1 || strings.Join(acc[0].Keys, ",") != "idx_l1_id,idx_l2_id" {
			t.Errorf("got %+v", acc)
		}
	}
	if _, err := Accesses(`[{"id": "TableReader_5"}]`); err == nil {
		t.Error("a TiDB plan was read")
	}
}
