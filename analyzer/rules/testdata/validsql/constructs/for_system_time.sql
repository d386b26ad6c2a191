-- FOR SYSTEM_TIME of a system-versioned table: no rewrite reads it
SELECT a FROM t5 FOR SYSTEM_TIME AS OF TIMESTAMP '2020-01-01 00:00:00'
-- want[mariadb] 18-33 "not checked: SQL this analyzer cannot parse \(FOR SYSTEM_TIME \(system-versioned tables\)\)"
-- want[mysql] 22-33 "syntax error near \"SYSTEM_TIME AS OF TIMESTAMP '2\.\.\.\""
