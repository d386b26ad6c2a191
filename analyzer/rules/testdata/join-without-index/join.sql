-- scenario: join
-- param m: table(main)
SELECT m.id
FROM {{m}} AS m
JOIN level1 ON m.l1_id = level1.id
JOIN level2 ON level2.record_value = m.myvalue -- want "join predicate level2.record_value = m.myvalue: neither level2.record_value nor main1.myvalue leads an index"
JOIN level3 ON level3.record_code = level2.record_name AND level3.l2_id = level2.id -- want "neither level3.record_code nor level2.record_name"
JOIN (SELECT record_value AS v, continent FROM level4) d ON d.v = m.integer_number -- want "d.v = m.integer_number: neither level4.record_value nor main1.integer_number"
JOIN (SELECT MAX(id) AS top FROM level5) e ON e.top = m.small_number;
