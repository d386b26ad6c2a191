-- scenario: simple_inner_index
-- description: one-level INNER JOIN through level1's parent_id index, rows ordered
-- tags: inner, simple, index, rows
-- param m: table(main)
-- param status: enum(level1.record_status)
-- param continent: list(continent)
SELECT m.continent, m.year_field, m.enum_field, level1.record_value AS l1
FROM {{m}} AS m
INNER JOIN level1 ON m.id = level1.parent_id AND level1.record_status = {{status}}
WHERE m.continent = {{continent}}
ORDER BY m.year_field DESC, l1 DESC
LIMIT 100;
