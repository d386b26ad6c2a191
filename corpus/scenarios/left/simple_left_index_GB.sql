-- scenario: simple_left_index_GB
-- description: one-level LEFT JOIN through level1's parent_id index, grouped
-- tags: left, simple, index, gb
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1
FROM {{m}} AS m
LEFT JOIN level1 ON m.id = level1.parent_id AND m.enum_field = {{status}}
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
