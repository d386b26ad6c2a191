-- scenario: tables
-- param status: enum(main.enum_field)
-- param lvl: table(level9)
-- want "table parameter lvl: no table of family level9" "parameter lvl is declared but never used"
SELECT /*+ JOIN_ORDER({{status}}) */ m.id -- want "enum parameter ..status.. inside an optimizer hint"
FROM {{status}} m; -- want "enum parameter ..status.. used where a table goes"
