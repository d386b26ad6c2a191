-- scenario: misspelt_key
-- descripton: one-level join, the key spelt wrong
-- want 4-51 "unknown header key \"descripton\"; did you mean description\?"
SELECT id FROM level1;
