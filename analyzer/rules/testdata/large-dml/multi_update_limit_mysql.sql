-- MySQL refuses a LIMIT in a multi-table UPDATE (error 1221).
UPDATE main1 m JOIN level1 ON m.l1_id = level1.id SET m.myvalue = level1.record_value ORDER BY m.id LIMIT 100; -- want "multi-table UPDATE ... JOIN cannot take a LIMIT on MySQL \(error 1221; MariaDB takes one\)"
