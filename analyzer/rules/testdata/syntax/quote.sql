-- scenario: quote
-- param m: table(main)
SELECT m.id FROM {{m}} AS m JION level1 ON m.l1_id = level1.id;
-- want 29-33 "syntax error near \"JION level1 ON m.l1_id = level...\""
