SELECT m.id
FROM main1 m FORCE INDEX (idx_l1_id, PRIMARY)
JOIN level1 USE INDEX FOR JOIN (idx_parent) ON m.id = level1.parent_id -- want "USE INDEX names idx_parent, which table level1 does not have; did you mean idx_parent_id\\?"
JOIN level2 IGNORE KEY (comp_record_continent_status_priority) ON level2.id = level1.l2_id;
