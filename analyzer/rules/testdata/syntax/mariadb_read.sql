-- lint-test: flavor=mariadb
-- scenario: mariadb_read
-- param m: table(main)
-- MariaDB's syntax the parser lacks is read at flavour mariadb: no error.
SELECT m.id AS rank, l.record_value FROM {{m}} AS m NATURAL INNER JOIN level1 AS l
WHERE MATCH m.varchar_field AGAINST ('x' IN BOOLEAN MODE) > 0
LIMIT 10 ROWS EXAMINED 1000;
