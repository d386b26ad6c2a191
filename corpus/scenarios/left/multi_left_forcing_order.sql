-- scenario: multi_left_forcing_order
-- description: level2 then level1, level3..level5 LEFT JOINed to m through parent_id (star), join order forced by a hint
-- tags: left, multilevel, index, star, gb, hint
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore impossible-join-order faithful to the reference workload, which forces this order; the server ignores it, and that plan is what the reference timings measured
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT /*+ JOIN_ORDER(level2, m, level1, level3, level4, level5) */
       m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1,
       SUM(level2.record_value) l2, SUM(level3.record_value) l3,
       SUM(level4.record_value) l4, SUM(level5.record_value) l5
FROM {{m}} AS m
LEFT JOIN level2 ON level2.parent_id = m.id AND m.enum_field = {{status}}
LEFT JOIN level1 ON level1.parent_id = m.id
LEFT JOIN level3 ON level3.parent_id = m.id
LEFT JOIN level4 ON level4.parent_id = m.id
LEFT JOIN level5 ON level5.parent_id = m.id
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
