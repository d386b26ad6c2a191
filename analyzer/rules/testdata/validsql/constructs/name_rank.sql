-- rank, reserved by MySQL 8, as a column and an alias
SELECT rank, RANK() OVER (ORDER BY id) AS rank FROM door
-- want[mysql] 8-12 "rank is a reserved word in MySQL 8 \(MariaDB takes it as a name\): write `rank` to use it as a name"
