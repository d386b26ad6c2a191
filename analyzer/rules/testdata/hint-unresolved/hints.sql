-- scenario: hints
-- param m: table(main)
SELECT /*+ JOIN_ORDER(level1, main1) INDEX(m idx_l1_id, idx_nope) NO_BNL(lvl1) JOIN_ORDR(m) */ m.id
-- want "hint JOIN_ORDER names main1, which is aliased as m in its query block: write m"
-- want "hint INDEX names index idx_nope, which table main1 does not have"
-- want "hint NO_BNL names lvl1, which is not a table of its query block .visible: m, level1."
-- want "unknown optimizer hint JOIN_ORDR; did you mean JOIN_ORDER\\?"
FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id
WHERE m.id IN (SELECT /*+ JOIN_PREFIX(l2, m) */ l2.parent_id FROM level2 l2);
-- want "hint JOIN_PREFIX names m, which is not a table of its query block .visible: l2."
