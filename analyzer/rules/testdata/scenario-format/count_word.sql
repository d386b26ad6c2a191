-- scenario: count_word
-- count: abc
-- want 11-14 "count must be a whole number of 0 or more, got \"abc\""
SELECT id FROM level1;
