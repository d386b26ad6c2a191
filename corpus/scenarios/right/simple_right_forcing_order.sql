-- scenario: simple_right_forcing_order
-- description: one-level RIGHT JOIN of m through the parent_id index with the join order forced to (m, level1) by a hint
-- tags: right, simple, index, gb, hint
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore outer-join-nullified faithful to the reference workload, whose WHERE filter on the optional side is part of what it measures
-- lint:file-ignore right-join kept on purpose: the reference workload measures how the server plans RIGHT JOIN (joinbench rewrite prints the LEFT JOIN form)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT /*+ JOIN_ORDER(m, level1) */
       m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1
FROM level1
RIGHT JOIN {{m}} AS m ON m.id = level1.parent_id AND m.enum_field = {{status}}
WHERE level1.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
