-- scenario: tables
-- param m: table(main)
SELECT m.id, level1.record_value, l9.id -- want "unknown table or alias l9 in l9.id"
FROM {{m}} AS m
INNER JOIN level1 ON m.l1_id = level1.id
INNER JOIN levl2 ON levl2.id = level1.l2_id -- want "unknown table levl2; did you mean level2\\?"
WHERE main1.continent = 'Asia'; -- want "table main1 is aliased as m in this query: write m.continent"
