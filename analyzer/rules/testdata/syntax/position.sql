-- scenario: position
-- param m: table(main)
SELECT m.id FROM {{m}} AS m
WHERE
WHERE m.id = 1;
-- want 1-6 "syntax error near \"WHERE m.id = 1;\""
