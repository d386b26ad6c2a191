-- ORDER without BY
SELECT a FROM t1 ORDER a
-- want "syntax error"
