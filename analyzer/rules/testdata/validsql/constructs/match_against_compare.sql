-- MATCH ... AGAINST compared without brackets
SELECT a FROM t1 WHERE MATCH(c) AGAINST('word') > 0
