-- lead and lag as names
SELECT lead, lag, LEAD(id) OVER (ORDER BY id) AS lead FROM door
-- want[mysql] 8-12 "lead is a reserved word in MySQL 8 \(MariaDB takes it as a name\): write `lead` to use it as a name"
