SELECT m.id FROM level1 RIGHT JOIN main1 m ON m.id = level1.parent_id
WHERE level1.continent = 'Asia' AND m.color = 'red' AND level1.id IS NULL; -- want "level1.continent rejects NULL on the optional side of the RIGHT JOIN"
