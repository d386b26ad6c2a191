-- scenario: use_index_other
-- description: USE INDEX on m lists indexes the plan does not read m by; USE INDEX FOR ORDER BY is not about access
-- param m: table(main)
-- param continent: list(continent)
SELECT m.id, level1.record_value
FROM {{m}} AS m USE INDEX (idx_l1_id, idx_l2_id) USE INDEX FOR ORDER BY (idx_year_field)
-- want "USE INDEX \(idx_l1_id, idx_l2_id\) on m is not followed: the plan reads m by a full table scan"
JOIN level1 ON level1.id = m.l1_id
WHERE m.continent = {{continent}}
ORDER BY m.year_field;
