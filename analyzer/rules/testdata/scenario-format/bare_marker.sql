-- scenario: bare_marker
-- description: values are declared parameters, never a bare ?
SELECT id FROM level1 WHERE id = ?;
-- want 34-36 "a bare \? is not allowed: declare a parameter and write \{\{name\}\}"
