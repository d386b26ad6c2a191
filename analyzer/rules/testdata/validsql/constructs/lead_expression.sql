-- LEAD with an expression as offset
SELECT a, LEAD(a, a - 1) OVER (ORDER BY a) AS l FROM t1
-- want[mysql] 19-24 "LEAD/LAG/NTH_VALUE/NTILE with an expression argument is MariaDB syntax, which MySQL rejects"
