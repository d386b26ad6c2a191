-- recursive CTE with CYCLE ... RESTRICT
WITH RECURSIVE r AS (SELECT a, b FROM t1 UNION ALL SELECT t1.a, t1.b FROM t1 JOIN r ON t1.a = r.b) CYCLE a, b RESTRICT SELECT * FROM r
-- want[mysql] 100-119 "a recursive CTE's CYCLE \.\.\. RESTRICT is MariaDB syntax, which MySQL rejects"
