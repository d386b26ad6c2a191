-- scenario: scan_first
-- description: level1 is scanned, but read first: an index on its join column could not have served the join
-- param m: table(main)
-- param continent: list(continent)
SELECT m.id, level1.record_value
FROM {{m}} AS m
JOIN level1 IGNORE INDEX (idx_parent_id) ON level1.parent_id = m.id
WHERE m.continent = {{continent}};
