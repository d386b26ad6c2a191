-- scenario: scan_after_join
-- description: level1 is read after m by a full scan (join buffer): the index on its join column is excluded
-- param m: table(main)
-- param continent: list(continent)
SELECT m.id, level1.record_value
FROM {{m}} AS m
STRAIGHT_JOIN level1 IGNORE INDEX (idx_parent_id) ON level1.parent_id = m.id
-- want 15-50 "the plan reads level1 by a full table scan for each row of m, though its join column level1.parent_id leads index idx_parent_id"
WHERE m.continent = {{continent}};
