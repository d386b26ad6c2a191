-- LEAD with an expression as offset
SELECT a, LEAD(a, a - 1) OVER (ORDER BY a) AS l FROM t1
