-- a missing comma in an IN list
SELECT a FROM t1 WHERE a IN (1 2, 3)
-- want 32-33 "syntax error near \"2, 3\)\""
