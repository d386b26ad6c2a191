-- scenario: force_unusable
-- description: FORCE INDEX names an index that cannot serve the join on parent_id: the server scans level1
-- param m: table(main)
-- param continent: list(continent)
SELECT m.id, level1.record_value
FROM {{m}} AS m
JOIN level1 FORCE INDEX (idx_record_status) ON level1.parent_id = m.id
-- want 13-44 "FORCE INDEX \(idx_record_status\) on level1 is not followed: the plan reads level1 by a full table scan \(ALL\)"
WHERE m.continent = {{continent}};
