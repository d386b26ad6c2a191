-- scenario: update_multi_left_join_pk
-- description: multi-table UPDATE of m.myvalue from a sum over LEFT JOINs along the primary-key chain to level5
-- tags: update, multilevel, pk, write
-- param m: table(main)
-- param status1: enum(level1.record_status)
-- param status2: enum(level2.record_status)
-- param status3: enum(level3.record_status)
-- param status4: enum(level4.record_status)
-- param continent: list(continent)
-- lint:file-ignore large-dml the reference workload's multi-table update; on Galera/PXC run it with a small --table-size
-- lint:file-ignore outer-join-nullified faithful to the reference workload, whose WHERE filter on the optional side is part of what it measures
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
UPDATE {{m}} AS m
JOIN (
  SELECT m.id AS match_id, SUM(level1.record_value) AS sum_l1
  FROM {{m}} AS m
  LEFT JOIN level1 ON m.l1_id = level1.id
  LEFT JOIN level2 ON level1.l2_id = level2.id AND level1.record_status = {{status1}}
  LEFT JOIN level3 ON level2.l3_id = level3.id AND level2.record_status = {{status2}}
  LEFT JOIN level4 ON level3.l4_id = level4.id AND level3.record_status = {{status3}}
  LEFT JOIN level5 ON level4.l5_id = level5.id AND level4.record_status = {{status4}}
  WHERE m.continent = {{continent}} AND level5.record_priority > 9
  GROUP BY m.id
) AS calc ON m.id = calc.match_id
SET m.myvalue = calc.sum_l1;
