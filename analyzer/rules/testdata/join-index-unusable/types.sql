-- scenario: types
-- param m: table(main)
SELECT m.id
FROM {{m}} AS m
JOIN level1 ON level1.id = m.l1_id
JOIN level2 ON level2.continent = m.l2_id -- want "join predicate level2.continent = m.l2_id: level2.continent is VARCHAR and m.l2_id is INT.*idx_country on level2.continent. or idx_l2_id on main1.l2_id."
JOIN level3 ON level3.id + 0 = m.myvalue -- want 16-25 "join predicate on level3.id wraps the column in an expression: its index PRIMARY on level3.id."
JOIN level4 ON CAST(m.l4_id AS CHAR) = level4.record_code -- want "join predicate on m.l4_id wraps the column.*idx_l4_id on main1.l4_id."
JOIN level5 ON level5.id + 0 = m.l5_id;
