-- scenario: multi_left_straight
-- description: STRAIGHT_JOIN from level2 LEFT JOIN m, then level1, level3..level5 LEFT JOINed to m (star), grouped
-- tags: left, multilevel, index, star, gb, straight
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore outer-join-nullified faithful to the reference workload, whose WHERE filter on the optional side is part of what it measures
SELECT STRAIGHT_JOIN m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1,
       SUM(level2.record_value) l2, SUM(level3.record_value) l3,
       SUM(level4.record_value) l4, SUM(level5.record_value) l5
FROM level2
LEFT JOIN {{m}} AS m ON level2.parent_id = m.id AND m.enum_field = {{status}}
LEFT JOIN level1 ON level1.parent_id = m.id
LEFT JOIN level3 ON level3.parent_id = m.id
LEFT JOIN level4 ON level4.parent_id = m.id
LEFT JOIN level5 ON level5.parent_id = m.id
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
