-- scenario: multi_right_forcing_order
-- description: as multi_right_index, with the join order forced to (m, level1, ..., level5) by a hint
-- tags: right, multilevel, index, gb, hint
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore right-join kept on purpose: the reference workload measures how the server plans RIGHT JOIN (joinbench rewrite prints the LEFT JOIN form)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT /*+ JOIN_ORDER(m, level1, level2, level3, level4, level5) */
       m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1,
       SUM(level2.record_value) l2, SUM(level3.record_value) l3,
       SUM(level4.record_value) l4, SUM(level5.record_value) l5
FROM level5
RIGHT JOIN level4 ON level5.id = level4.parent_id
RIGHT JOIN level3 ON level4.id = level3.parent_id
RIGHT JOIN level2 ON level3.id = level2.parent_id
RIGHT JOIN level1 ON level2.id = level1.parent_id
RIGHT JOIN {{m}} AS m ON m.id = level1.parent_id AND m.enum_field = {{status}}
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
