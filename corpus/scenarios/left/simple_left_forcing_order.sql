-- scenario: simple_left_forcing_order
-- description: one-level LEFT JOIN through the parent_id index with the join order forced to (level1, m) by a hint
-- tags: left, simple, index, gb, hint
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param continent: list(continent)
-- lint:file-ignore impossible-join-order faithful to the reference workload, which forces this order; the server ignores it, and that plan is what the reference timings measured
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT /*+ JOIN_ORDER(level1, m) */
       m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1
FROM {{m}} AS m
LEFT JOIN level1 ON m.id = level1.parent_id AND m.enum_field = {{status}}
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
