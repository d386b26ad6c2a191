SELECT id, continent FROM level1 JOIN level2 USING (id, continent)
WHERE parent_id IN (SELECT id FROM main1 WHERE main1.continent = continent);
-- want "column parent_id is ambiguous"
