-- rank as a table alias
SELECT rank.a FROM t1 AS rank
-- want[mysql] 26-30 "rank is a reserved word in MySQL 8 \(MariaDB takes it as a name\): write `rank` to use it as a name"
