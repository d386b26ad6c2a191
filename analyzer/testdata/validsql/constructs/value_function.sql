-- VALUE(col), MariaDB's synonym of VALUES(col)
INSERT INTO t1 (a, b) SELECT a, b FROM t2 ON DUPLICATE KEY UPDATE b = VALUE(b)
