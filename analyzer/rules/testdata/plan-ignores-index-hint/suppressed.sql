-- scenario: suppressed
-- description: a finding of a plan rule is silenced like any other; an unused suppression of one is reported by the plan check
-- param m: table(main)
-- param continent: list(continent)
SELECT m.id, level1.record_value
FROM {{m}} AS m
-- lint:ignore plan-ignores-index-hint the scenario measures the scan the server falls back to
JOIN level1 FORCE INDEX (idx_record_status) ON level1.parent_id = m.id
-- lint:ignore plan-ignores-index-hint nothing to silence on the next line
WHERE m.continent = {{continent}};
