-- scenario: unknown_key
-- owner: dba team
-- want 4-19 "unknown header key \"owner\""
SELECT id FROM level1;
