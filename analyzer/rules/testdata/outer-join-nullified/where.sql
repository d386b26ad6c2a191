-- scenario: where
-- param m: table(main)
SELECT m.id, level1.record_value
FROM {{m}} AS m
LEFT JOIN level1 ON m.l1_id = level1.id AND level1.record_status = 'active'
LEFT JOIN level2 ON level1.l2_id = level2.id
WHERE m.continent = 'Asia'
  AND level1.record_priority > 3 -- want "WHERE condition on level1.record_priority rejects NULL on the optional side of the LEFT JOIN"
  AND (level2.id IS NULL OR level2.record_priority > 3)
  AND level2.continent IS NOT NULL; -- want "level2.continent rejects NULL"
