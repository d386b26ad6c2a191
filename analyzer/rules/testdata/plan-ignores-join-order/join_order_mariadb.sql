-- scenario: join_order_mariadb
-- description: MariaDB does not know JOIN_ORDER: hint-ignored-by-flavor reports it, not this rule
-- lint-test: flavor=mariadb
-- param m: table(main)
-- param continent: list(continent)
SELECT /*+ JOIN_ORDER(level1, m) */ m.id, level1.record_value
FROM {{m}} AS m
JOIN level1 ON level1.parent_id = m.id
WHERE m.continent = {{continent}};
