-- dense_rank, reserved by MySQL 8, as a name
SELECT dense_rank FROM door ORDER BY dense_rank
