-- scenario: ok
-- param m: table(main)
SELECT /*+ JOIN_ORDER(m) BNL(m) */ m.id FROM {{m}} AS m LIMIT 10;
