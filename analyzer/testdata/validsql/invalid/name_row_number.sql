-- row_number as a name: MariaDB reserves it too (quote it: `row_number`)
SELECT row_number FROM door
-- want "syntax error"
