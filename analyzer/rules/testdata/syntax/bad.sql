-- scenario: bad
-- param m: table(main)
-- param status: enum(main.enum_field)
SELECT m.id
FROM {{m}} AS m
WHERE m.enum_field = = {{status}};
-- want "syntax error near \"= {{status}};\""
