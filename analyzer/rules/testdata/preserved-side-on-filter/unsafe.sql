-- scenario: unsafe
-- lint-test: unsafe-fixes
-- param m: table(main)
SELECT m.id, level1.record_value
FROM level1
RIGHT JOIN {{m}} AS m ON m.small_number > 3 AND m.l1_id = level1.id -- want "ON condition m.small_number > 3 reads only m, the preserved side of the RIGHT JOIN"
LIMIT 10;
