-- scenario: simple_inner_forcing_order
-- description: one-level INNER JOIN through the parent_id index with the join order forced to (level1, m) by a hint
-- tags: inner, simple, index, gb, hint
-- param m: table(main)
-- param status: enum(level1.record_status)
-- param continent: list(continent)
SELECT /*+ JOIN_ORDER(level1, m) */
       m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1
FROM {{m}} AS m
INNER JOIN level1 ON m.id = level1.parent_id AND level1.record_status = {{status}}
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
