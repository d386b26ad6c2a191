-- scenario: straight_right_join
-- description: SELECT STRAIGHT_JOIN over a RIGHT JOIN: the server reads the preserved side (m) first, as a LEFT JOIN; no finding here (impossible-join-order reports the order)
-- param m: table(main)
-- param continent: list(continent)
SELECT STRAIGHT_JOIN m.id, level1.record_value
FROM level1
RIGHT JOIN {{m}} AS m ON m.id = level1.parent_id
WHERE m.continent = {{continent}};
