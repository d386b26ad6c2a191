-- scenario: point_select
-- description: one row of a main table by its primary key, at a random id(main); hot or uniform access is --distribution (hotspot: a fifth of the ids gets 80% of the lookups)
-- tags: point, hot, pk, read
-- param m: table(main)
-- param id: id(main)
-- Not part of the reference join workload: with point_update, the hot versus
-- uniform lesson (is the working set in the buffer pool?) in one flag.
SELECT m.id, m.continent, m.year_field, m.varchar_field
FROM {{m}} AS m
WHERE m.id = {{id}};
