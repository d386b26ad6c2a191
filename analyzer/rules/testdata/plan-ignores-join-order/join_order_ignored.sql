-- scenario: join_order_ignored
-- description: the plan (captured from MariaDB, which does not know the hint) reads m first; a MySQL server dropping the hint does the same
-- param m: table(main)
-- param continent: list(continent)
SELECT /*+ JOIN_ORDER(level1, m) */ m.id, level1.record_value
-- want 12-33 "JOIN_ORDER asks for level1, m in that order, but the plan reads the tables in the order m, level1"
FROM {{m}} AS m
JOIN level1 ON level1.parent_id = m.id
WHERE m.continent = {{continent}};
