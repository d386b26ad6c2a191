-- scenario: simple_inner_pk_GB
-- description: one-level INNER JOIN through level1's primary key, grouped
-- tags: inner, simple, pk, gb
-- param m: table(main)
-- param status: enum(level1.record_status)
-- param continent: list(continent)
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1
FROM {{m}} AS m
INNER JOIN level1 ON m.l1_id = level1.id AND level1.record_status = {{status}}
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
