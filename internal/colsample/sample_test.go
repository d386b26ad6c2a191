package colsample

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/internal/testdb"
)

// TestReadDrawsExistingValuesDeterministically checks the sample on a
// real server: every value drawn is one the column holds, the same seed
// gives the same sample (also from a copy of the table filled in another
// order), another seed another one, and NULLs are never drawn.
func TestReadDrawsExistingValuesDeterministically(t *testing.T) {
	db := testdb.Open(t, "colsample")
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, status VARCHAR(10), KEY (customer_id))",
		"CREATE TABLE orders_rev LIKE orders",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var fwd, rev []string
	for i := 1; i <= 400; i++ {
		cust := "NULL"
		if i%7 != 0 {
			cust = fmt.Sprint(1000 + (i*37)%250)
		}
		fwd = append(fwd, fmt.Sprintf("(%d, %s, 's%d')", i, cust, i%5))
	}
	for i := len(fwd) - 1; i >= 0; i-- {
		rev = append(rev, fwd[i])
	}
	for tb, rows := range map[string][]string{"orders": fwd, "orders_rev": rev} {
		if _, err := db.ExecContext(ctx, "INSERT INTO "+tb+" VALUES "+strings.Join(rows, ",")); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Read(ctx, db, "orders", "customer_id", 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Text) != 50 {
		t.Fatalf("sample of 50 from 250 distinct values has %d", len(a.Text))
	}
	seen := map[string]bool{}
	for i, v := range a.Text {
		if seen[v] {
			t.Errorf("value %s drawn twice", v)
		}
		seen[v] = true
		if _, ok := a.Bind[i].(int64); !ok {
			t.Errorf("value %s of an INT column binds as %T, want int64", v, a.Bind[i])
		}
		var n int
		if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM orders WHERE customer_id = ?", v).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("drawn value %s is not in orders.customer_id", v)
		}
	}
	again, err := Read(ctx, db, "orders", "customer_id", 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Text, again.Text) {
		t.Errorf("same seed, another sample:\n%v\n%v", a.Text, again.Text)
	}
	other, err := Read(ctx, db, "orders_rev", "customer_id", 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Text, other.Text) {
		t.Errorf("same values loaded in another order, another sample:\n%v\n%v", a.Text, other.Text)
	}
	reseeded, err := Read(ctx, db, "orders", "customer_id", 50, 8)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Text, reseeded.Text) {
		t.Errorf("seeds 7 and 8 drew the same sample %v", a.Text)
	}
	small, err := Read(ctx, db, "orders", "status", 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(small.Text) != 5 {
		t.Errorf("a column of 5 distinct values gave a sample of %d: %v", len(small.Text), small.Text)
	}
	if _, ok := small.Bind[0].(string); !ok {
		t.Errorf("a VARCHAR value binds as %T, want string", small.Bind[0])
	}
	if _, err := Read(ctx, db, "orders", "no_such_column", 5, 7); err == nil || !strings.Contains(err.Error(), "sample(orders.no_such_column)") {
		t.Errorf("unknown column: err = %v, want one naming the sample", err)
	}
}
