-- scenario: ignore
-- lint:file-ignore hint-ignored-by-flavor hints kept for MySQL runs
-- lint:file-ignore unknown-column
-- want "lint:ignore unknown-column needs a reason"
SELECT /*+ LEADING(m) */ m.id
FROM level1
-- lint:ignore right-join the scenario measures RIGHT JOIN handling
RIGHT JOIN main1 m ON m.id = level1.parent_id
JOIN level2 ON level2.id = level1.l2_id -- lint:ignore right-join stale
-- want "unused lint:ignore right-join: nothing to silence here"
WHERE m.nope = 1 -- lint:ignore unknown-colum typo in the rule name
-- want "lint:ignore names unknown rule unknown-colum; did you mean unknown-column\\?"
;
