-- scenario: scan_no_index
-- description: level1 is scanned after m, but its join column leads no index (join-without-index is the static rule for it)
-- param m: table(main)
-- param continent: list(continent)
SELECT m.id, level1.record_value
FROM {{m}} AS m
STRAIGHT_JOIN level1 ON level1.record_value = m.myvalue
WHERE m.continent = {{continent}};
