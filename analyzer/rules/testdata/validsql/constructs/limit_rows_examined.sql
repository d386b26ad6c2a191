-- LIMIT ROWS EXAMINED
SELECT t1.a FROM t1 JOIN t2 ON t1.a = t2.a LIMIT 10 ROWS EXAMINED 1000
-- want[mysql] 53-71 "LIMIT \.\.\. ROWS EXAMINED is MariaDB syntax, which MySQL rejects"
