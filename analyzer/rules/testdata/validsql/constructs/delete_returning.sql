-- DELETE ... RETURNING
DELETE FROM t1 WHERE a = 1 RETURNING a, b
-- want[mysql] 28-42 "DELETE/INSERT \.\.\. RETURNING is MariaDB syntax, which MySQL rejects"
