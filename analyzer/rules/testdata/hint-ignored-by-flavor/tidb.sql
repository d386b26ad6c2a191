-- lint-test: flavor=tidb
SELECT /*+ LEADING(level1, m) JOIN_ORDER(level1, m) */ m.id
-- want "TiDB ignores optimizer hint JOIN_ORDER silently; use LEADING.level1, m."
FROM main1 AS m JOIN level1 ON m.l1_id = level1.id;
