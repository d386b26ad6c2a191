-- lint-test: flavor=mariadb
-- scenario: mariadb_error_after
-- param m: table(main)
-- A mistake after MariaDB syntax the parser lacks is reported where it is.
SELECT m.id AS rank FROM {{m}} AS m
WERE m.id = 1 LIMIT 10 ROWS EXAMINED 1000;
-- want 1-5 "WERE is not a keyword; did you mean WHERE\?"
