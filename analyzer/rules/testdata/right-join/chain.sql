-- scenario: chain
-- param m: table(main)
SELECT STRAIGHT_JOIN m.continent, SUM(level1.record_value) l1
FROM level3
RIGHT OUTER JOIN level2 ON level3.l2_id = level2.id -- want "RIGHT JOIN"
RIGHT JOIN level1 ON level2.l1_id = level1.id -- want "RIGHT JOIN"
/* keep me */ RIGHT JOIN {{m}} m FORCE INDEX (idx_l1_id) ON m.id = level1.parent_id -- want "RIGHT JOIN"
WHERE m.continent = 'Asia'
GROUP BY m.continent;
