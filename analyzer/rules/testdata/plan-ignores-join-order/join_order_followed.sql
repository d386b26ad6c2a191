-- scenario: join_order_followed
-- description: the plan reads the tables in the hinted order
-- param m: table(main)
-- param continent: list(continent)
SELECT /*+ JOIN_ORDER(m, level1) */ m.id, level1.record_value
FROM {{m}} AS m
JOIN level1 ON level1.parent_id = m.id
WHERE m.continent = {{continent}};
