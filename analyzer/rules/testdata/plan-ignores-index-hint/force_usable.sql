-- scenario: force_usable
-- description: FORCE INDEX names the index of the join column, and the plan uses it
-- param m: table(main)
-- param continent: list(continent)
SELECT m.id, level1.record_value
FROM {{m}} AS m
JOIN level1 FORCE INDEX (idx_parent_id) ON level1.parent_id = m.id
WHERE m.continent = {{continent}};
