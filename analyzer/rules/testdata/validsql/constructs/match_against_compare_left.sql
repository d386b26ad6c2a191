-- MATCH ... AGAINST on the right of a comparison
SELECT a FROM t1 WHERE 0 < MATCH(c) AGAINST('word')
