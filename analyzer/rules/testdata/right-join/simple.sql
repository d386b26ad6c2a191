-- scenario: simple
-- description: level1 right-joined to main
-- param m: table(main)
-- param status: enum(main.enum_field)
SELECT /*+ JOIN_ORDER(m, level1) */ m.continent, level1.record_value AS l1
FROM level1
RIGHT JOIN {{m}} AS m ON m.id = level1.parent_id AND m.enum_field = {{status}} -- want "RIGHT JOIN: write it as the equivalent LEFT JOIN"
WHERE level1.continent = 'Asia'
ORDER BY l1 DESC
LIMIT 100;
