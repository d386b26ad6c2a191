-- scenario: simple_left_straight
-- description: STRAIGHT_JOIN from level1 LEFT JOIN m through the parent_id index, grouped
-- tags: left, simple, index, gb, straight
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore outer-join-nullified faithful to the reference workload, whose WHERE filter on the optional side is part of what it measures
SELECT STRAIGHT_JOIN m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1
FROM level1
LEFT JOIN {{m}} AS m ON m.id = level1.parent_id AND m.enum_field = {{status}}
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
