-- rank as a table alias
SELECT rank.a FROM t1 AS rank
