-- scenario: intent
-- lint-test: flavor=tidb
-- param m: table(main)
-- A table named by its name where it has an alias is meant as the alias:
-- the equivalent names the alias, and an order no server can follow once
-- the name is right gets no equivalent.
SELECT /*+ JOIN_ORDER(level1, {{m}}) */ m.id -- want "TiDB ignores optimizer hint JOIN_ORDER silently; no equivalent: the order reads the optional side of the LEFT JOIN before m, which no server can do; keep m first"
FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;
SELECT /*+ JOIN_ORDER(level1, main1) */ m.id -- want "TiDB ignores optimizer hint JOIN_ORDER silently; use LEADING.level1, m.$"
FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;
