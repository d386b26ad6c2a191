-- JSON_TABLE (MySQL 8 and MariaDB): no rewrite reads it
SELECT jt.x FROM t1, JSON_TABLE(t1.c, '$[*]' COLUMNS (x INT PATH '$')) AS jt
-- want 22-33 "not checked: SQL this analyzer cannot parse \(JSON_TABLE\)"
