-- multi-table UPDATE written with JOIN, ORDER BY and LIMIT
UPDATE t1 JOIN t2 ON t1.a = t2.a SET t1.b = t2.b ORDER BY t1.a LIMIT 10
-- want[mysql] 1-7 "multi-table UPDATE \.\.\. JOIN cannot take a LIMIT on MySQL \(error 1221; MariaDB takes one\)"
