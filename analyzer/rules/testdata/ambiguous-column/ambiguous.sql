-- scenario: ambiguous
SELECT continent, m.id -- want "column continent is ambiguous: it is in m and level1"
FROM main1 m JOIN level1 ON m.l1_id = level1.id
WHERE record_status = 'active' AND l2_id > 0; -- want "column l2_id is ambiguous"
