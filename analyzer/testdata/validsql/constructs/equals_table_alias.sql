-- table alias written with =
SELECT x.a FROM t1 = x WHERE x.a = 1
