-- scenario: straight_followed
-- description: SELECT STRAIGHT_JOIN reads level1 then m, as the plan does
-- param m: table(main)
-- param status: enum(level1.record_status)
SELECT STRAIGHT_JOIN m.id, level1.record_value
FROM level1
JOIN {{m}} AS m ON m.id = level1.parent_id
WHERE level1.record_status = {{status}};
