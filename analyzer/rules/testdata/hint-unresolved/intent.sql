-- scenario: intent
-- param m: table(main)
-- A table named by its name where it has an alias: the fix writes the
-- alias, and in a join order it lists the preserved side of an outer
-- join first when the order would otherwise be impossible.
SELECT /*+ JOIN_ORDER(level1, {{m}}) */ m.id -- want 31-36 "hint JOIN_ORDER names main1, which is aliased as m in its query block: write JOIN_ORDER.m, level1., which also lists the preserved side of the LEFT JOIN before level1"
FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;
SELECT /*+ JOIN_ORDER(main1, level1) BNL(main1) */ m.id
-- want 23-28 "hint JOIN_ORDER names main1, which is aliased as m in its query block: write m .the server ignores the hint otherwise.$"
-- want 42-47 "hint BNL names main1, which is aliased as m in its query block: write m"
FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;
