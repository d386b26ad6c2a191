-- scenario: right_subquery_multi_pk
-- description: derived level tables RIGHT JOINed up the primary-key chain, then the derived m (filtered main), grouped
-- tags: derived, multilevel, pk, gb
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore right-join kept on purpose: the reference workload measures how the server plans RIGHT JOIN (joinbench rewrite prints the LEFT JOIN form)
SELECT m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(l1.record_value) l1,
       SUM(l2.record_value) l2, SUM(l3.record_value) l3,
       SUM(l4.record_value) l4, SUM(l5.record_value) l5
FROM (SELECT id, l4_id, record_value FROM level5) AS l5
RIGHT JOIN (SELECT id, l3_id, record_value FROM level4) AS l4 ON l5.l4_id = l4.id
RIGHT JOIN (SELECT id, l2_id, record_value FROM level3) AS l3 ON l4.l3_id = l3.id
RIGHT JOIN (SELECT id, l1_id, record_value FROM level2) AS l2 ON l3.l2_id = l2.id
RIGHT JOIN (SELECT id, parent_id, record_value FROM level1) AS l1 ON l2.l1_id = l1.id
RIGHT JOIN (SELECT l1_id, continent, year_field, enum_field
      FROM {{m}}
      WHERE enum_field = {{status}} AND continent = {{continent}}) AS m ON l1.parent_id = m.l1_id
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
