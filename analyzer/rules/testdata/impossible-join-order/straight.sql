-- scenario: straight
-- lint-test: flavor=mariadb
-- param m: table(main)
SELECT STRAIGHT_JOIN m.id -- want 8-21 "STRAIGHT_JOIN asks for FROM order, but the RIGHT JOIN lists its optional side level1 before its preserved side m"
FROM level1 RIGHT JOIN {{m}} AS m ON m.l1_id = level1.id;
SELECT STRAIGHT_JOIN m.id
FROM {{m}} AS m LEFT JOIN level1 ON m.l1_id = level1.id;
