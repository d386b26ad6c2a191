-- scenario: straight_operator_ignored
-- description: the plan is the one the server chose for this statement without STRAIGHT_JOIN (m first), as a server ignoring the operator would
-- param m: table(main)
-- param status: enum(level1.record_status)
SELECT m.id, level1.record_value
FROM level1
STRAIGHT_JOIN {{m}} AS m ON m.id = level1.parent_id
-- want "STRAIGHT_JOIN asks for level1 before m, but the plan reads the tables in the order m, level1"
WHERE m.continent = 'Asia' AND level1.record_status = {{status}};
