-- a missing comma between assignments
UPDATE t1 SET a = 1 b = 2 WHERE a = 3
-- want 21-22 "syntax error near \"b = 2"
