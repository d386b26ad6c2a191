-- scenario: offline
-- param m: table(main)
-- Without a live server nobody else parses the statement: rule
-- not-checked warns, and this rule reports nothing (TestServerParser
-- lints with a server).
SELECT jt.a FROM {{m}} AS m, JSON_TABLE(m.varchar_field, '$[*]' COLUMNS (a INT PATH '$')) AS jt;
