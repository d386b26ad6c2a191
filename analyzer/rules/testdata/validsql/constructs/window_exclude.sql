-- window frame with EXCLUDE
SELECT a, SUM(b) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE NO OTHERS) AS s FROM t1
-- want[mysql] 76-93 "a window frame's EXCLUDE NO OTHERS is MariaDB syntax, which MySQL rejects"
