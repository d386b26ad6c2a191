SELECT m.id FROM main1 AS m WHERE m.id IN (1, 2 -- want "syntax error at end of statement"
-- wants nothing: the error is on the line above
