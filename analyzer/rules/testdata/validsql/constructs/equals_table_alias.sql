-- table alias written with =
SELECT x.a FROM t1 = x WHERE x.a = 1
-- want[mysql] 20-23 "a table alias written with = is MariaDB syntax, which MySQL rejects"
