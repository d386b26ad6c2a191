-- scenario: types
-- param m: table(main)
-- param status: enum(level1.record_status)
-- param perm: set(main.set_field)
-- param continent: list(continent)
-- param small: int(0, 70000)
-- param code: list(color)
-- param nope: list(planets)
-- want "list parameter nope: no value list named planets"
-- param bad: enum(level1.record_value)
-- want "enum parameter bad: level1.record_value is BIGINT, not ENUM or SET"
SELECT m.id FROM {{m}} AS m
JOIN level1 ON m.l1_id = level1.id AND level1.record_status = {{status}}
WHERE m.enum_field IN ({{perm}}) -- want "\"read\" is not one of its members"
  AND m.enum_field = {{status}}
  AND m.small_number < {{small}} -- want "range 0..70000 does not fit SMALLINT"
  AND level1.continent = {{continent}}
  AND level1.record_code = {{code}} -- want "\"yellow\" is longer than the column's 5"
  AND m.color <> {{nope}} AND {{bad}} IS NOT NULL
  AND m.id = {{m}}; -- want "table parameter ..m.. used where a value goes"
