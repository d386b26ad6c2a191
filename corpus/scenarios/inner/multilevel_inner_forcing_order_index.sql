-- scenario: multilevel_inner_forcing_order_index
-- description: every level INNER JOINed to m through its parent_id index (star), join order forced by a hint
-- tags: inner, multilevel, index, star, gb, hint
-- param m: table(main)
-- param status: enum(level1.record_status)
-- param continent: list(continent)
SELECT /*+ JOIN_ORDER(level2, level3, level4, level5, m, level1) */
       m.continent, COUNT(m.continent) cc, m.year_field, COUNT(m.year_field) cy,
       m.enum_field, COUNT(m.enum_field) cs, SUM(level1.record_value) l1,
       SUM(level2.record_value) l2, SUM(level3.record_value) l3,
       SUM(level4.record_value) l4, SUM(level5.record_value) l5
FROM {{m}} AS m
INNER JOIN level1 ON level1.parent_id = m.id AND level1.record_status = {{status}}
INNER JOIN level2 ON level2.parent_id = m.id
INNER JOIN level3 ON level3.parent_id = m.id
INNER JOIN level4 ON level4.parent_id = m.id
INNER JOIN level5 ON level5.parent_id = m.id
WHERE m.continent = {{continent}}
GROUP BY m.continent, m.year_field, m.enum_field
ORDER BY m.year_field DESC, cc DESC, cs DESC
LIMIT 100;
