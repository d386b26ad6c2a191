-- scenario: chain
-- param m: table(main)
-- param s: enum(level1.record_status)
-- The preserved side of the second LEFT JOIN is the first join: the
-- finding names the table the condition reads and the side it is on.
SELECT m.id FROM {{m}} AS m
LEFT JOIN level1 ON m.l1_id = level1.id
LEFT JOIN level2 ON level1.l2_id = level2.id AND level1.record_status = {{s}} -- want 50-78 "ON condition level1.record_status = {{s}} reads only level1, of the preserved side \(m, level1\) of the LEFT JOIN: it filters no row of \(m, level1\)"
WHERE m.id > 0;
