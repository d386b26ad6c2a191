-- scenario: point_select_sbtest
-- description: sysbench's oltp_point_select statement on its own sbtest1 table, for side-by-side speed checks
-- tags: bench, point
-- param id: int(1,100000)
SELECT c FROM sbtest1 WHERE id = {{id}};
