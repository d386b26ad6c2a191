-- LIKE with an operator in the pattern
SELECT a FROM t1 WHERE a LIKE b + 1
-- want[mysql] 31-36 "a LIKE pattern with an operator is MariaDB syntax, which MySQL rejects"
