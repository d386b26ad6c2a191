-- scenario: misspelt
-- param m: table(main)
SELECT {{m}}.id FROM {{m}}
JION level1 ON {{m}}.l1_id = level1.id -- want 1-5 "near \"JION level1 ON {{m}}.l1_id = l...\": JION is not a keyword; did you mean JOIN\?"
WHERE {{m}}.id = 3;
