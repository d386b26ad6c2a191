-- lint-test: flavor=mariadb
-- scenario: reserved_word_mariadb
-- param m: table(main)
-- row_number is reserved in MariaDB too.
SELECT m.id AS row_number FROM {{m}} AS m;
-- want 16-26 "row_number is a reserved word: write `row_number` to use it as a name"
