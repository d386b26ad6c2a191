package status

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/DATA-DOG/go-sqlmock"
)

// With SampleDisk, each sample adds the tablespaces' size as a gauge; a
// server without MariaDB's table is asked MySQL's, and one with neither
// is not asked again.
func TestSampleDisk(t *testing.T) {
	db, mock, err := sqlmock.New()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cols := []string{"Variable_name", "Value"}
	status := func() {
		mock.ExpectQuery("SHOW GLOBAL STATUS").WillReturnRows(sqlmock.NewRows(cols).AddRow("Questions", "1"))
	}
	status()
	status()
	mock.ExpectQuery("INNODB_SYS_TABLESPACES").WillReturnRows(sqlmock.NewRows([]string{"s"}).AddRow(1000))
	status()
	mock.ExpectQuery("INNODB_SYS_TABLESPACES").WillReturnError(errors.New("unknown table"))
	mock.ExpectQuery("INNODB_TABLESPACES").WillReturnRows(sqlmock.NewRows([]string{"s"}).AddRow(5000))
	status()
	mock.ExpectQuery("INNODB_TABLESPACES").WillReturnError(errors.New("unknown table"))
	status()

	s := NewSampler(db, "db1:3306", "r1", false)
	s.SampleDisk()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	if _, err := s.Sample(ctx, t0); err != nil {
		t.Fatal(err)
	}
	want := []int64{1000, 5000, -1, -1}
	for i, w := range want {
		rows, err := s.Sample(ctx, t0.Add(time.Duration(i+1)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		r, ok := byName(rows)[DiskVariable]
		if w < 0 && ok {
			t.Errorf("sample %d: %+v, want none", i+1, r)
		}
		if w >= 0 && (!ok || r.Delta != w || !r.Gauge) {
			t.Errorf("sample %d: %+v, want %d", i+1, r, w)
		}
	}
	if err := mock.ExpectationsWereMet(); err != nil {
		t.Error(err)
	}
}
