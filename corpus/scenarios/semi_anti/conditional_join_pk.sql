-- scenario: conditional_join_pk
-- description: LEFT JOIN through level1's primary key with conditional aggregates: share of active level1 rows
-- tags: semi_anti, simple, pk, conditional, gb
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs,
       SUM(CASE WHEN l.record_status = 'active' THEN 1 ELSE 0 END) l1,
       COUNT(l.record_status) cl1,
       SUM(CASE WHEN l.record_status = 'active' THEN 1 ELSE 0 END) / COUNT(l.record_status) * 100 percentage
FROM {{m}} AS m
LEFT JOIN level1 AS l ON m.l1_id = l.id
WHERE m.enum_field = {{status}} AND m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC;
