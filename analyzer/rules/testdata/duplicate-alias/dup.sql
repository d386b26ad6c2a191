SELECT m.continent AS c, COUNT(*) AS n, m.color AS C -- want "alias C is used twice in this select list"
FROM main1 m JOIN level1 m ON m.l1_id = m.id -- want "table alias m is used twice in this FROM clause"
GROUP BY m.continent, m.color;
