-- scenario: multi_left_index
-- description: LEFT JOINs along the parent_id index chain m -> level1 -> ... -> level5, grouped
-- tags: left, multilevel, index, gb
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1,
       SUM(level2.record_value) l2, SUM(level3.record_value) l3,
       SUM(level4.record_value) l4, SUM(level5.record_value) l5
FROM {{m}} AS m
LEFT JOIN level1 ON m.id = level1.parent_id AND m.enum_field = {{status}}
LEFT JOIN level2 ON level1.id = level2.parent_id
LEFT JOIN level3 ON level2.id = level3.parent_id
LEFT JOIN level4 ON level3.id = level4.parent_id
LEFT JOIN level5 ON level4.id = level5.parent_id
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
