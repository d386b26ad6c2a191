package ingest

import (
	"os"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/corpus"
	"github.com/joinbench/joinbench/ddl"
)

func shopSchema(t *testing.T) *ddl.Schema {
	t.Helper()
	b, err := os.ReadFile("testdata/shop/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ddl.ParseSchema(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func importShop(t *testing.T, o BuildOptions) map[string]*Scenario {
	t.Helper()
	s := NewSet(nil)
	if err := s.ReadFile("testdata/mysql8-slow.log", FormatAuto); err != nil {
		t.Fatal(err)
	}
	rep := Choose(s, 0, false, o)
	if len(rep.Unwritable) > 0 {
		t.Fatalf("unwritable: %v", rep.Unwritable)
	}
	out := map[string]*Scenario{}
	for _, sc := range rep.Written {
		out[strings.Join(tags(sc.Group.Example)[2:], " ")] = sc
	}
	return out
}

// TestBuildInfersKindsFromTheSchema: each value of the MySQL 8 log
// becomes the placeholder its column calls for, and the file loads.
func TestBuildInfersKindsFromTheSchema(t *testing.T) {
	got := importShop(t, BuildOptions{Schema: shopSchema(t)})
	if len(got) != 2 {
		t.Fatalf("%d scenarios, want 2 (the UPDATE is left out without Writes): %v", len(got), got)
	}
	orders := got["join orders customers"]
	revenue := got["join order_items orders"]
	if orders == nil || revenue == nil {
		t.Fatalf("scenarios by tag: %v", got)
	}
	for _, want := range []string{
		"-- description: 2 executions, 11.141ms total, p95 6.93ms, max 6.93ms, database shop (slow log)",
		"-- param customer_id: sample(orders.customer_id)\n",
		"-- param status: list(orders_status)\n",
		"-- param status_2: list(orders_status)\n",
		"WHERE o.customer_id = {{customer_id}} AND o.status IN ({{status}}, {{status_2}})",
		"LIMIT 20;\n",
	} {
		if !strings.Contains(orders.Text, want) {
			t.Errorf("missing %q in\n%s", want, orders.Text)
		}
	}
	if m := orders.Lists["orders_status"]; strings.Join(m, ",") != "new,paid,shipped,cancelled" {
		t.Errorf("orders_status list %q, want the ENUM's members", m)
	}
	for _, want := range []string{
		"-- param sku: sample(order_items.sku)\n",
		"-- param ordered_at: date(2025-07-01,2025-07-01)\n",
		"WHERE i.sku = {{sku}} AND o.ordered_at >= {{ordered_at}};",
	} {
		if !strings.Contains(revenue.Text, want) {
			t.Errorf("missing %q in\n%s", want, revenue.Text)
		}
	}
	for _, sc := range got {
		s, err := corpus.ParseFile(sc.Name+".sql", []byte(sc.Text))
		if err != nil {
			t.Errorf("%s does not load: %v", sc.Name, err)
			continue
		}
		if len(s.Writes()) > 0 {
			t.Errorf("%s writes: %v", sc.Name, s.Writes())
		}
	}
}

// TestBuildKeepsTheLogsValues: --values log lists what the log saw; with
// no schema, integers seen make a range.
func TestBuildKeepsTheLogsValues(t *testing.T) {
	got := importShop(t, BuildOptions{Schema: shopSchema(t), InferOptions: InferOptions{Values: ValuesLog}})
	orders := got["join orders customers"]
	if orders == nil {
		t.Fatalf("scenarios: %v", got)
	}
	if l := orders.Lists[orders.Name+"_customer_id"]; strings.Join(l, ",") != "17,923" {
		t.Errorf("customer ids seen: %q, want 17,923\n%s", l, orders.Text)
	}
	bare := importShop(t, BuildOptions{})["join orders customers"]
	if bare == nil || !strings.Contains(bare.Text, "-- param customer_id: int(17,923)\n") {
		t.Errorf("without a schema:\n%v", bare)
	}
}

// TestBuildWrites: an UPDATE is a write, left out unless asked for.
func TestBuildWrites(t *testing.T) {
	s := NewSet(&Filter{Writes: true})
	if err := s.ReadFile("testdata/mysql8-slow.log", FormatAuto); err != nil {
		t.Fatal(err)
	}
	without := Choose(s, 0, false, BuildOptions{Schema: shopSchema(t)})
	if len(without.Written) != 2 || without.Skipped[SkipWrite] != 1 {
		t.Errorf("without writes: %d written, skipped %v", len(without.Written), without.Skipped)
	}
	with := Choose(s, 0, false, BuildOptions{Schema: shopSchema(t), Writes: true})
	var update *Scenario
	for _, sc := range with.Written {
		if strings.HasPrefix(sc.Name, "update_orders_") {
			update = sc
		}
	}
	if update == nil || strings.Join(update.Writes, ",") != "dml" || !strings.Contains(update.Text, "UPDATE orders SET status = {{status}} WHERE id = {{id}};") {
		t.Errorf("with writes: %+v", update)
	}
	// By total time the revenue query (once, 12.5 ms) leads the orders
	// query (twice, 11.1 ms); by count the orders query does.
	for byCount, want := range map[bool]string{false: "select_order_items_orders_", true: "select_orders_customers_"} {
		if top := Choose(s, 1, byCount, BuildOptions{Schema: shopSchema(t)}); len(top.Written) != 1 || !strings.HasPrefix(top.Written[0].Name, want) {
			t.Errorf("top 1 (by count: %v): %v, want %s...", byCount, top.Written[0].Name, want)
		}
	}
}
