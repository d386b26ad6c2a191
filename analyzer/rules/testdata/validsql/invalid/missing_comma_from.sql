-- a missing comma between tables
SELECT t1.a FROM t1 x t2 y WHERE x.a = y.a
-- want 23-25 "syntax error near \"t2 y"
