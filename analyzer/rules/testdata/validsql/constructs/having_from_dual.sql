-- HAVING after FROM dual
SELECT 1 AS x FROM dual HAVING x > 0
