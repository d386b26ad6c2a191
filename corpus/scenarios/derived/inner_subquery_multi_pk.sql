-- scenario: inner_subquery_multi_pk
-- description: derived m (filtered main) INNER JOINed to derived level tables along the primary-key chain, grouped
-- tags: derived, multilevel, pk, gb
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(l1.record_value) l1,
       SUM(l2.record_value) l2, SUM(l3.record_value) l3,
       SUM(l4.record_value) l4, SUM(l5.record_value) l5
FROM (SELECT l1_id, continent, year_field, enum_field
      FROM {{m}}
      WHERE enum_field = {{status}} AND continent = {{continent}}) AS m
INNER JOIN (SELECT id, l2_id, record_value FROM level1) AS l1 ON m.l1_id = l1.id
INNER JOIN (SELECT id, l3_id, record_value FROM level2) AS l2 ON l1.l2_id = l2.id
INNER JOIN (SELECT id, l4_id, record_value FROM level3) AS l3 ON l2.l3_id = l3.id
INNER JOIN (SELECT id, l5_id, record_value FROM level4) AS l4 ON l3.l4_id = l4.id
INNER JOIN (SELECT id, record_value FROM level5) AS l5 ON l4.l5_id = l5.id
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
