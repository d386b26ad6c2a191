-- multi-table DELETE with ORDER BY and LIMIT
DELETE t1 FROM t1 JOIN t2 ON t1.a = t2.a ORDER BY t1.a LIMIT 10
-- want 42-47 "syntax error near \"ORDER BY"
