-- MEDIAN(...) OVER
SELECT MEDIAN(b) OVER (PARTITION BY a) AS m FROM t1
-- want[mysql] 8-39 "MEDIAN\(\.\.\.\) OVER is MariaDB syntax, which MySQL rejects"
