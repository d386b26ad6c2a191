-- scenario: knock_on
-- param m: table(main)
-- A derived table or CTE reading * from an unknown table has columns
-- nobody can name: what is read through it is not reported (the unknown
-- table is, by unknown-table); a known table's unknown column still is.
WITH c AS (SELECT * FROM levl2)
SELECT d.id, d.record_value, c.parent_id, anything, m.nosuch -- want "unknown column m.nosuch"
FROM (SELECT l.* FROM levl1 AS l) AS d
JOIN c ON c.id = d.l2_id
JOIN {{m}} AS m ON m.l1_id = d.id
WHERE d.continent = 'Asia' AND c.continent = d.continent;
-- Columns a derived table names itself are still checked.
SELECT d.id, d.nope -- want "unknown column d.nope .d is a derived table.$"
FROM (SELECT l.id FROM level1 AS l) AS d;
