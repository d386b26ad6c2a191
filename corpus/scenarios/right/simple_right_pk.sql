-- scenario: simple_right_pk
-- description: one-level RIGHT JOIN of m through level1's primary key, rows ordered
-- tags: right, simple, pk, rows
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore outer-join-nullified faithful to the reference workload, whose WHERE filter on the optional side is part of what it measures
-- lint:file-ignore right-join kept on purpose: the reference workload measures how the server plans RIGHT JOIN (joinbench rewrite prints the LEFT JOIN form)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT m.continent, m.year_field, m.enum_field, level1.record_value AS l1
FROM level1
RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id AND m.enum_field = {{status}}
WHERE level1.continent = {{continent}}
ORDER BY m.year_field DESC, l1 DESC
LIMIT 100;
