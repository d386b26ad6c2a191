-- scenario: index_updates
-- description: UPDATE of a variable-length column on up to 10 rows found through the comp_color index (splits and merges pages)
-- tags: write, simple, index, update
-- param m: table(main)
-- param text: string(5,255)
-- param color: list(color)
-- param continent: list(continent)
-- param status: enum(main.enum_field)
UPDATE {{m}} AS m
SET m.varchar_field = {{text}}
WHERE m.color = {{color}} AND m.continent = {{continent}} AND m.enum_field = {{status}}
LIMIT 10;
