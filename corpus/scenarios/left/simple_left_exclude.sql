-- scenario: simple_left_exclude
-- description: rows of m with no matching level1 row (LEFT JOIN ... IS NULL) counted per continent
-- tags: left, simple, pk, anti, gb
-- param m: table(main)
-- param status: enum(main.enum_field)
-- param color: list(color)
-- lint:file-ignore preserved-side-on-filter faithful to the reference workload, whose ON condition on the preserved side is part of what it measures
SELECT m.continent, COUNT(m.id) null_val
FROM {{m}} AS m
LEFT JOIN level1 ON m.l1_id = level1.id AND m.enum_field = {{status}}
WHERE m.color = {{color}} AND level1.id IS NULL
GROUP BY m.continent;
