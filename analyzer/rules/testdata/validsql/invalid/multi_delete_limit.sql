-- multi-table DELETE with LIMIT: MariaDB 10.11 and MySQL 8 reject it
DELETE t1 FROM t1, t2 WHERE t1.a = t2.a LIMIT 10
-- want 41-46 "syntax error near \"LIMIT 10\""
