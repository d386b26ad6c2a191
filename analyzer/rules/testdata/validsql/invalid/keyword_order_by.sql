-- ORDER without BY
SELECT a FROM t1 ORDER a
-- want 24-25 "syntax error near \"a\": ORDER must be followed by BY"
