-- rank, reserved by MySQL 8, as a column and an alias
SELECT rank, RANK() OVER (ORDER BY id) AS rank FROM door
