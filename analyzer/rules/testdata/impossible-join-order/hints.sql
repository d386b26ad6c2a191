-- scenario: hints
-- param m: table(main)
SELECT /*+ JOIN_ORDER(level1, m) */ m.id -- want 12-33 "JOIN_ORDER lists level1, the optional side of the LEFT JOIN, before its preserved side m"
FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;
SELECT /*+ JOIN_ORDER(m, level1) */ m.id
FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;
SELECT /*+ JOIN_PREFIX(level2, level1) */ m.id -- want "JOIN_PREFIX lists level2, the optional side of the RIGHT JOIN, before its preserved side level3"
FROM {{m}} AS m JOIN level2 ON m.l2_id = level2.id
JOIN level1 ON m.l1_id = level1.id
RIGHT JOIN level3 ON level3.id = level1.parent_id;
SELECT /*+ JOIN_ORDER(level1, m) */ m.id
FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;
