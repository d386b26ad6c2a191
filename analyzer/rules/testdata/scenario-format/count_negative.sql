-- scenario: count_negative
-- count: -5
-- want 11-13 "count must be a whole number of 0 or more, got \"-5\""
SELECT id FROM level1;
