-- NATURAL LEFT INNER JOIN is no join
SELECT t1.a FROM t1 NATURAL LEFT INNER JOIN t2
-- want 34-39 "syntax error near \"INNER JOIN"
