-- scenario: filter
-- param m: table(main)
-- param status: enum(main.enum_field)
SELECT m.id, level1.record_value
FROM {{m}} AS m
LEFT JOIN level1 ON m.l1_id = level1.id AND m.enum_field = {{status}} -- want 45-70 "ON condition m.enum_field = {{status}} reads only m, the preserved side of the LEFT JOIN"
LEFT JOIN level2 ON level1.l2_id = level2.id AND level2.record_status = 'active'
WHERE m.continent = 'Asia' OR m.continent = 'Europe'
ORDER BY m.id
LIMIT 10;
