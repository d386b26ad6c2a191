package server

import (
	"github.com/joinbench/joinbench/internal/ledger"
)

// Ledger is where a change to the endpoint's server is noted before it is
// made (package ledger): its sandbox's folder when joinbench controls the
// server's process, else a table on the server itself (TableLedger).
func (e Endpoint) Ledger() ledger.Ledger {
	if e.Process != nil {
		return e.Process.Ledger()
	}
	return e.TableLedger()
}

// TableLedger is the ledger kept on the endpoint's server, in the table
// ledger.TableName of its database.
func (e Endpoint) TableLedger() *ledger.Table {
	db := e.database
	if cfg, err := e.Config(); err == nil {
		db = cfg.DBName
	}
	return ledger.OpenTable(e.Name+", database "+db, e.OpenDB)
}
