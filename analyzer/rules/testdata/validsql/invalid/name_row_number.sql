-- row_number as a name: MariaDB reserves it too (quote it: `row_number`)
SELECT row_number FROM door
-- want 8-18 "row_number is a reserved word: write `row_number` to use it as a name"
