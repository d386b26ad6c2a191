-- an unclosed bracket
SELECT a FROM t1 WHERE (a = 1
-- want "syntax error at end of statement"
