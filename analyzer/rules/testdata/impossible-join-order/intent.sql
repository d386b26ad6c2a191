-- scenario: intent
-- param m: table(main)
-- The hint names {{m}} by its table where the query calls it m: the
-- server ignores it (hint-unresolved), and with m the order would still
-- put the LEFT JOIN's optional side first, which no server can follow.
SELECT /*+ JOIN_ORDER(level1, {{m}}) */ m.id -- want 12-37 "JOIN_ORDER lists level1, the optional side of the LEFT JOIN, before its preserved side m: .*; write JOIN_ORDER.m, level1.$"
FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;
-- A prefix hint that leaves the preserved side out gets it listed.
SELECT /*+ JOIN_PREFIX(level2) */ m.id -- want "JOIN_PREFIX lists level2, the optional side of the LEFT JOIN, before its preserved side m: .*; write JOIN_PREFIX.m, level2.$"
FROM {{m}} AS m LEFT JOIN level2 ON m.l2_id = level2.id;
-- Nested outer joins: each preserved side moves before its optional side.
SELECT /*+ JOIN_ORDER(level3, level1, main1) */ m.id -- want "JOIN_ORDER lists level3, the optional side of the LEFT JOIN, before its preserved side level1: .*; write JOIN_ORDER.m, level1, level3.$"
FROM {{m}} AS m LEFT JOIN (level1 LEFT JOIN level3 ON level3.id = level1.parent_id) ON m.l1_id = level1.id;
