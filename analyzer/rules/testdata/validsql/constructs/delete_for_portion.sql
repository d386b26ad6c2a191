-- DELETE ... FOR PORTION OF an application-time period
DELETE FROM t4 FOR PORTION OF p FROM '2000-01-01' TO '2010-01-01' WHERE a = 1
-- want[mariadb] 1-7 "DELETE without LIMIT or a unique-key equality may remove any number of rows in one transaction"
-- want[mysql] 16-66 "DELETE/UPDATE \.\.\. FOR PORTION OF is MariaDB syntax, which MySQL rejects"
