-- dense_rank, reserved by MySQL 8, as a name
SELECT dense_rank FROM door ORDER BY dense_rank
-- want[mysql] 8-18 "dense_rank is a reserved word in MySQL 8 \(MariaDB takes it as a name\): write `dense_rank` to use it as a name"
