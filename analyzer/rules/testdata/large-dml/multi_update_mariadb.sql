-- lint-test: flavor=mariadb
-- MariaDB takes ORDER BY and LIMIT in a multi-table UPDATE (10.3.2): with them it is bounded.
UPDATE main1 m JOIN level1 ON m.l1_id = level1.id SET m.myvalue = level1.record_value ORDER BY m.id LIMIT 100;
UPDATE main1 m, level1 SET m.myvalue = level1.record_value WHERE m.l1_id = level1.id ORDER BY m.id LIMIT 100;
UPDATE main1 m JOIN level1 ON m.l1_id = level1.id SET m.myvalue = level1.record_value; -- want "multi-table UPDATE ... JOIN without LIMIT .*add ORDER BY and LIMIT and loop"
