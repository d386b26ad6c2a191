UPDATE main1 m JOIN (
  SELECT m2.id match_id, SUM(level1.record_value) sum_l1
  FROM level1 RIGHT JOIN main1 m2 ON m2.l1_id = level1.parent_id -- want "RIGHT JOIN"
  GROUP BY m2.id
) calc ON m.id = calc.match_id
SET m.myvalue = calc.sum_l1;
