-- table value constructor in a derived table
SELECT * FROM t1 WHERE a IN (SELECT * FROM (VALUES (1), (2)) AS v)
