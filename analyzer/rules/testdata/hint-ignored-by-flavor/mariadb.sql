-- scenario: mariadb
-- lint-test: flavor=mariadb
SELECT /*+ JOIN_ORDER(level1, m) BNL(m) MAX_EXECUTION_TIME(1000) */ m.id
-- want "MariaDB ignores optimizer hint JOIN_ORDER silently; use SELECT STRAIGHT_JOIN with the FROM clause listing level1, m in that order"
-- want "MariaDB ignores optimizer hint BNL silently; use SET STATEMENT join_cache_level"
-- want "MariaDB ignores optimizer hint MAX_EXECUTION_TIME silently; use SET STATEMENT max_statement_time"
FROM main1 AS m JOIN level1 ON m.l1_id = level1.id;
SELECT /*+ JOIN_ORDER(level1, m) */ m.id
-- want "MariaDB ignores optimizer hint JOIN_ORDER silently; no equivalent: the order reads the optional side of the LEFT JOIN before m, which no server can do; keep m first"
FROM main1 AS m LEFT JOIN level1 ON m.l1_id = level1.id;
SELECT /*+ JOIN_ORDER(m, level1) */ m.id
-- want "MariaDB ignores optimizer hint JOIN_ORDER silently; use SELECT STRAIGHT_JOIN with the FROM clause listing m, level1 in that order"
FROM main1 AS m LEFT JOIN level1 ON m.l1_id = level1.id;
