-- scenario: columns
-- param m: table(main)
SELECT m.continent, COUNT(m.id) cc, SUM(d.sum_l1) s
FROM {{m}} AS m
JOIN (SELECT l1.id, l1.record_value AS sum_l1 FROM level1 l1 WHERE l1.record_stat = 'active') d -- want "unknown column l1.record_stat .l1 is table level1.; did you mean record_status\\?"
  ON d.id = m.l1_id AND d.record_value > 0 -- want "unknown column d.record_value .d is a derived table."
WHERE EXISTS (SELECT 1 FROM level2 WHERE level2.id = m.l2_id AND level2.parent_id = m.nope) -- want "unknown column m.nope"
  AND colour = 'red' -- want "unknown column colour; did you mean color\\?"
GROUP BY m.continent
ORDER BY cc DESC, s;
