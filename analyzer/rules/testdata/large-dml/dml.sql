UPDATE main1 SET myvalue = 1 WHERE color = 'red'; -- want "UPDATE without LIMIT or a unique-key equality"
UPDATE main1 SET myvalue = 1 WHERE color = 'red' LIMIT 10;
UPDATE main1 SET myvalue = 1 WHERE id = 42;
DELETE FROM main1 WHERE uuid = 'x';
DELETE m FROM main1 AS m WHERE m.id = 7;
DELETE FROM level1 WHERE record_status = 'inactive'; -- want "DELETE without LIMIT"
UPDATE main1 m JOIN level1 ON m.l1_id = level1.id SET m.myvalue = level1.record_value -- want "multi-table UPDATE ... JOIN"
WHERE m.id < 100;
