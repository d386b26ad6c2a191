package load

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/sqllex"
)

// DatasetTable is the small table in which prepare records what it
// loaded, once every table is complete, so that a run can say what data
// it ran on and two runs on different data are told apart. A prepare
// forgets the record when it starts; cleanup drops the table.
const DatasetTable = "joinbench_dataset"

const datasetDDL = "CREATE TABLE IF NOT EXISTS " + DatasetTable + ` (
  id TINYINT NOT NULL PRIMARY KEY,
  dataset TEXT NOT NULL,
  recorded DATETIME(6) NOT NULL
) ENGINE=InnoDB`

// Dataset is what a prepare loaded: the options that decide the tables and
// their rows (DatasetKey, as a snapshot is keyed), and the rows each table
// held once it was done.
type Dataset struct {
	DatasetKey
	Rows     map[string]int64 `json:"table_rows"`
	Recorded time.Time        `json:"recorded"`
	// Sample digests rows 1, the middle one and the last of the first
	// main tables and of the level tables as the server holds them now
	// (SampleRows); it is not stored.
	Sample string `json:"-"`
}

// erNoSuchTable is the server's error for a table that does not exist.
const erNoSuchTable = 1146

// forgetDataset removes the record of a prepare: the tables are about to
// change. A database without the table has none.
func forgetDataset(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "DELETE FROM "+DatasetTable)
	if err != nil && !isNoSuchTable(err) {
		return fmt.Errorf("forget the dataset recorded in %s: %w", DatasetTable, err)
	}
	return nil
}

// recordDataset records the dataset opts loaded, with the rows each of its
// tables holds now. opts must have passed check.
func recordDataset(ctx context.Context, db *sql.DB, opts PrepareOptions) error {
	key, err := NewSnapshotKey(opts, ServerKey{})
	if err != nil {
		return err
	}
	d := Dataset{DatasetKey: key.Dataset, Rows: map[string]int64{}, Recorded: time.Now().UTC()}
	for _, t := range opts.Schema.TableNames() {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+sqllex.QuoteIdent(t)).Scan(&n); err != nil {
			return fmt.Errorf("count the rows of %s: %w", t, err)
		}
		d.Rows[t] = n
	}
	b, err := json.Marshal(&d)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, datasetDDL); err != nil {
		return fmt.Errorf("create %s: %w", DatasetTable, err)
	}
	if _, err := db.ExecContext(ctx, "REPLACE INTO "+DatasetTable+" (id, dataset, recorded) VALUES (1, ?, ?)", string(b), d.Recorded); err != nil {
		return fmt.Errorf("record the dataset in %s: %w", DatasetTable, err)
	}
	return nil
}

// ReadDataset returns the dataset prepare recorded in the database db
// selects, with a sample of its rows as they are now (Sample); nil when
// none is recorded (an older prepare, tables made otherwise, a prepare
// that did not finish).
func ReadDataset(ctx context.Context, db *sql.DB) (*Dataset, error) {
	var text string
	err := db.QueryRowContext(ctx, "SELECT dataset FROM "+DatasetTable+" WHERE id = 1").Scan(&text)
	if errors.Is(err, sql.ErrNoRows) || isNoSuchTable(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", DatasetTable, err)
	}
	var d Dataset
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		return nil, fmt.Errorf("read %s: %w", DatasetTable, err)
	}
	if d.Sample, err = sampleRows(ctx, db, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// Columns of the sample: those whose text every server writes alike
// (integers, decimals, strings); not floats, times or binary.
var (
	sampleMainColumns  = "id, l1_id, l2_id, l3_id, l4_id, l5_id, small_number, integer_number, myvalue, decimal_number, char_field, varchar_field, color, continent, uuid, enum_field, set_field"
	sampleLevelColumns = "id, continent, parent_id, l1_id, l2_id, l3_id, l4_id, l5_id, record_name, record_code, record_value, record_status, record_priority"
)

// sampleMainTables bounds the main tables sampled: a look-up per table at
// the start of every run.
const sampleMainTables = 4

// sampleRows digests rows 1, the middle one and the last of the first
// main tables and of the level tables: looked up by primary key, so cheap;
// "" without a primary key, where each look-up would scan its table.
func sampleRows(ctx context.Context, db *sql.DB, d *Dataset) (string, error) {
	if d.NoPrimaryKey || d.TableSize < 1 {
		return "", nil
	}
	schema, err := ddl.SchemaOptions{Tables: d.Tables, TableName: d.TableName}.Normalize()
	if err != nil {
		return "", fmt.Errorf("%s: %w", DatasetTable, err)
	}
	h := sha256.New()
	ids := []int64{1, (d.TableSize + 1) / 2, d.TableSize}
	for i, t := range schema.TableNames() {
		cols := sampleLevelColumns
		if i < schema.Tables {
			if i >= sampleMainTables {
				continue
			}
			cols = sampleMainColumns
		}
		q := "SELECT " + cols + " FROM " + sqllex.QuoteIdent(t) + " WHERE id IN (?, ?, ?) ORDER BY id"
		if err := digestRows(ctx, db, h, t, q, ids); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// digestRows writes the rows q returns, with their table's name, to h.
func digestRows(ctx context.Context, db *sql.DB, h io.Writer, table, q string, ids []int64) error {
	rows, err := db.QueryContext(ctx, q, ids[0], ids[1], ids[2])
	if err != nil {
		return fmt.Errorf("sample the rows of %s: %w", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	h.Write([]byte(table + "\n"))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("sample the rows of %s: %w", table, err)
		}
		var line []string
		for _, v := range vals {
			if v == nil {
				line = append(line, "\\N")
			} else {
				line = append(line, string(v))
			}
		}
		h.Write([]byte(strings.Join(line, "\t") + "\n"))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sample the rows of %s: %w", table, err)
	}
	return nil
}

func isNoSuchTable(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == erNoSuchTable
}
