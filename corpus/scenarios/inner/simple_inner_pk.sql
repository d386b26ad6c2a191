-- scenario: simple_inner_pk
-- description: one-level INNER JOIN through level1's primary key, rows ordered
-- tags: inner, simple, pk, rows
-- param m: table(main)
-- param status: enum(level1.record_status)
-- param continent: list(continent)
SELECT m.continent, m.year_field, m.enum_field, level1.record_value AS l1
FROM {{m}} AS m
INNER JOIN level1 ON m.l1_id = level1.id AND level1.record_status = {{status}}
WHERE m.continent = {{continent}}
ORDER BY m.year_field DESC, l1 DESC
LIMIT 100;
