-- scenario: anti_join_not_exists_pk
-- description: anti-join: rows of m with no level1 row of the status (NOT EXISTS), counted
-- tags: semi_anti, simple, pk, anti, gb
-- param m: table(main)
-- param status: enum(level1.record_status)
-- param continent: list(continent)
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs
FROM {{m}} AS m
WHERE NOT EXISTS (SELECT 1 FROM level1 WHERE level1.id = m.l1_id AND level1.record_status = {{status}})
  AND m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
