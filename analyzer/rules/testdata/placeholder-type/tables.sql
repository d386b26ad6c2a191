-- scenario: tables
-- param status: enum(main.enum_field)
-- param lvl: table(level9)
-- want "table parameter lvl: no table of family level9"
SELECT m.id
FROM {{status}} m JOIN {{lvl}} l ON l.id = m.id; -- want "enum parameter ..status.. used where a table goes"
