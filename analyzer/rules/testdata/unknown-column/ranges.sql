-- scenario: ranges
-- param m: table(main)
SELECT m.id, m.nosuch -- want 14-22 "unknown column m.nosuch"
FROM {{m}} AS m;
