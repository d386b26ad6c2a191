-- CAST(... AS INT)
SELECT CAST(c AS INT) AS n FROM t1
-- want[mysql] 18-21 "CAST \.\.\. AS VARCHAR/INT is MariaDB syntax, which MySQL rejects"
