-- scenario: simple_left_index
-- description: one-level LEFT JOIN through level1's parent_id index, rows ordered
-- tags: left, simple, index, rows
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT m.continent, m.year_field, m.enum_field, level1.record_value AS l1
FROM {{m}} AS m
LEFT JOIN level1 ON m.id = level1.parent_id AND m.enum_field = {{status}}
WHERE m.continent = {{continent}}
ORDER BY m.year_field DESC, l1 DESC
LIMIT 100;
