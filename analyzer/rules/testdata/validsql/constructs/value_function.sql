-- VALUE(col), MariaDB's synonym of VALUES(col)
INSERT INTO t1 (a, b) SELECT a, b FROM t2 ON DUPLICATE KEY UPDATE b = VALUE(b)
-- want[mysql] 71-76 "VALUE\(column\) is MariaDB syntax, which MySQL rejects"
