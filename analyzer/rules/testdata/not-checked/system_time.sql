-- lint-test: flavor=mariadb
-- scenario: system_time
-- param m: table(main)
SELECT m.id FROM {{m}} AS m FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01 00:00:00';
-- want 29-44 "not checked: SQL this analyzer cannot parse \(FOR SYSTEM_TIME \(system-versioned tables\)\)"
