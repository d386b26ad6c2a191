-- LIKE ... ESCAPE with a hexadecimal literal (0x5c is the backslash)
SELECT a FROM t1 WHERE c LIKE 'a\%b' ESCAPE 0x5c
