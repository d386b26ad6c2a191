-- scenario: point_update
-- description: UPDATE of a non-indexed column of one row by its primary key, at a random id(main); hot or uniform access is --distribution
-- tags: write, point, hot, pk, update
-- param m: table(main)
-- param id: id(main)
-- param v: int(0,2147483647)
-- Not part of the reference join workload: the write side of point_select.
-- The mix is the counts: -s point_select=9 -s point_update=1 reads nine rows
-- for every one it writes.
UPDATE {{m}} AS m
SET m.integer_number = {{v}}
WHERE m.id = {{id}};
