SELECT /*+ LEADING(level1, m) JOIN_ORDER(level1, m) */ m.id -- want "MySQL ignores optimizer hint LEADING silently; use JOIN_PREFIX.level1, m."
FROM main1 AS m JOIN level1 ON m.l1_id = level1.id;
