-- INSERT ... SELECT ... RETURNING
INSERT INTO t2 (a, b) SELECT a, b FROM t1 WHERE a > 10 RETURNING a
-- want[mysql] 56-67 "DELETE/INSERT \.\.\. RETURNING is MariaDB syntax, which MySQL rejects"
