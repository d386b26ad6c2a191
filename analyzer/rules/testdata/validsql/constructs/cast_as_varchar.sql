-- CAST(... AS VARCHAR(n))
SELECT CAST(a AS VARCHAR(10)) AS s FROM t1
-- want[mysql] 18-25 "CAST \.\.\. AS VARCHAR/INT is MariaDB syntax, which MySQL rejects"
