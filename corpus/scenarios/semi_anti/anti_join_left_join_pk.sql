-- scenario: anti_join_left_join_pk
-- description: anti-join written as LEFT JOIN ... IS NULL through level1's primary key, counted
-- tags: semi_anti, simple, pk, anti, gb
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs
FROM {{m}} AS m
LEFT JOIN level1 ON m.l1_id = level1.id AND m.enum_field = {{status}}
WHERE level1.id IS NULL AND m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
