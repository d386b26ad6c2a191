-- table value constructor in a derived table
SELECT * FROM t1 WHERE a IN (SELECT * FROM (VALUES (1), (2)) AS v)
-- want[mysql] 45-60 "a table value constructor VALUES \(\.\.\.\) without ROW is MariaDB syntax, which MySQL rejects"
