package experiment

import (
	"context"
	"fmt"
	"os/exec"
)

// bigTable is the table the schema changes and the DELETEs work on, apart
// from the workload's: what they cost the workload is then their stall,
// not the workload's own contention with them.
const bigTable = "big"

// fillBig (re)creates big with Rows rows.
func (e *env) fillBig(ctx context.Context) error {
	e.logf("filling %s with %d rows", bigTable, e.o.Rows)
	return e.exec(ctx, bigTable, "DROP TABLE IF EXISTS "+bigTable,
		"CREATE TABLE "+bigTable+" (id INT PRIMARY KEY, grp INT NOT NULL, pad CHAR(100) NOT NULL)",
		fmt.Sprintf("INSERT INTO %s SELECT n, n %% 100, REPEAT('x', 100) FROM (%s) s WHERE n <= %d", bigTable, numbersFrom1(e.o.Rows), e.o.Rows))
}

// numbersFrom1 is a query of the numbers 1 to at least n (column n), as
// every server of the family runs it: a cross join of digits, where
// MariaDB's sequence tables are MariaDB's alone and MySQL's recursive CTEs
// stop at 1,000 rows by default.
func numbersFrom1(n int64) string {
	const digits = "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 " +
		"UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)"
	sum, from := "1", ""
	for i, p := 0, int64(1); p < n || i == 0; i, p = i+1, p*10 {
		sum += fmt.Sprintf(" + %d * d%d.d", p, i)
		if from != "" {
			from += " CROSS JOIN "
		}
		from += fmt.Sprintf("%s d%d", digits, i)
	}
	return "SELECT " + sum + " AS n FROM " + from
}

// ptOSC is pt-online-schema-change's command name.
const ptOSC = "pt-online-schema-change"

// ptOSCInstalled says whether pt-online-schema-change can be run: the
// lesson measures it only then.
func ptOSCInstalled() bool {
	_, err := exec.LookPath(ptOSC)
	return err == nil
}

// ddlMethodNames are the methods the lesson measures, in order.
func ddlMethodNames() []string {
	if ptOSCInstalled() {
		return []string{"TOI", "RSU", "pt-osc"}
	}
	return []string{"TOI", "RSU"}
}

// ddlMethods rebuilds big by TOI, by RSU on every node in turn, and by
// pt-online-schema-change when it is installed.
func ddlMethods(ctx context.Context, e *env) (*Page, error) {
	alter := "ALTER TABLE " + bigTable + " ENGINE=InnoDB"
	methods := []method{
		{name: "TOI", action: "node2: sql: " + alter, before: e.fillBig},
		{name: "RSU", action: "all: rsu: " + alter},
	}
	var notes []string
	if ptOSCInstalled() {
		methods = append(methods, method{name: "pt-osc",
			action: "node2: exec: " + ptOSC + " --alter ENGINE=InnoDB h={host},P={port},u={user},D={database},t=" + bigTable + " --execute"})
	} else {
		notes = append(notes, ptOSC+" is not installed (percona-toolkit): its row is left out")
	}
	costs, err := compareMethods(ctx, e, methods)
	if err != nil {
		return nil, err
	}
	p := methodsPage("ddl-methods: one table rebuilt by TOI, RSU and pt-online-schema-change",
		fmt.Sprintf("A read/write workload on every node (%d threads) while %s (%d rows) is rebuilt (%s), by each method in its own run.", e.o.Threads, bigTable, e.o.Rows, alter), costs)
	p.Notes = append(p.Notes, notes...)
	return p, nil
}

// chunkedDML deletes half of big in one statement, then (big filled
// again) in chunks of 5000 rows.
func chunkedDML(ctx context.Context, e *env) (*Page, error) {
	del := fmt.Sprintf("DELETE FROM %s WHERE id <= %d", bigTable, e.o.Rows/2)
	first := "node1"
	if e.tgt.Sandbox == nil || e.tgt.Sandbox.Nodes < 2 {
		first = "1"
	}
	costs, err := compareMethods(ctx, e, []method{
		{name: "single", action: first + ": sql: " + del, before: e.fillBig},
		{name: "chunked 5000", action: first + ": chunked 5000: " + del, before: e.fillBig},
	})
	if err != nil {
		return nil, err
	}
	return methodsPage("chunked-dml: one large DELETE against the same DELETE in chunks",
		fmt.Sprintf("A read/write workload (%d threads) while %d of the %d rows of %s are deleted (%s), in one statement and in chunks of 5000 rows, each in its own run.",
			e.o.Threads, e.o.Rows/2, e.o.Rows, bigTable, del), costs), nil
}
