-- scenario: ok
-- param m: table(main)
SELECT /*+ JOIN_ORDER(level1, m) BNL(m) INDEX(m idx_l1_id) MAX_EXECUTION_TIME(1000) SET_VAR(optimizer_switch='mrr=on') QB_NAME(qb1) */ m.id
FROM {{m}} AS m JOIN level1 ON m.l1_id = level1.id;
