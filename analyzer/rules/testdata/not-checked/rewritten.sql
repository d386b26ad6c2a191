-- lint-test: flavor=mariadb
-- scenario: rewritten
-- param m: table(main)
-- MariaDB syntax a rewrite reads is checked: no finding of this rule.
SELECT m.id, m.myvalue AS rank FROM {{m}} AS m WHERE m.id > 3 LIMIT 10 ROWS EXAMINED 1000;
