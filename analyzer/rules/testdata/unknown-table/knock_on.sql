-- scenario: knock_on
-- param m: table(main)
WITH c AS (SELECT * FROM levl2) -- want "unknown table levl2; did you mean level2\?"
SELECT d.id, d.record_value, c.parent_id, m.id
FROM (SELECT * FROM levl1) AS d -- want "unknown table levl1; did you mean level1\?"
JOIN c ON c.id = d.l2_id
JOIN {{m}} AS m ON m.l1_id = d.id
WHERE d.continent = 'Asia' AND x.id = 1; -- want "unknown table or alias x in x.id"
