-- LIKE with an operator in the pattern
SELECT a FROM t1 WHERE a LIKE b + 1
