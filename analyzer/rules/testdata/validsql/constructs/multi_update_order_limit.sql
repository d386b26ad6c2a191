-- multi-table UPDATE with ORDER BY and LIMIT (MariaDB 10.3.2+)
UPDATE t1, t2 SET t1.b = t2.b WHERE t1.a = t2.a ORDER BY t1.a LIMIT 10
-- want[mysql] 49-71 "multi-table UPDATE with ORDER BY or LIMIT is MariaDB syntax, which MySQL rejects"
