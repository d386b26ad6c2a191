-- window as a column name
SELECT id, window FROM door WHERE window > 0
-- want[mysql] 12-18 "window is a reserved word in MySQL 8 \(MariaDB takes it as a name\): write `window` to use it as a name"
