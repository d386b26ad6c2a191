-- LAST_VALUE(expr, expr, ...) outside a window: the value of the last
SELECT LAST_VALUE(@x := a, @x + 1) AS v FROM t1
-- want[mysql] 8-35 "LAST_VALUE\(expr, expr, \.\.\.\) outside a window is MariaDB syntax, which MySQL rejects"
