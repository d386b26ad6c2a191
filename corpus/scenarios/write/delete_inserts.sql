-- scenario: delete_inserts
-- description: delete one row by a random id, then insert a fresh row with that id (two statements, one id)
-- tags: write, simple, pk, delete, insert
-- param m: table(main)
-- param id: id(main)
-- param l1: id(level1)
-- param l2: id(level2)
-- param l3: id(level3)
-- param l4: id(level4)
-- param l5: id(level5)
-- param small: int(0,32767)
-- param integer: int(0,2147483647)
-- param myvalue: int(0,2147483647)
-- param cents: int(-9999999999,9999999999)
-- param float: int(-1000000000,1000000000)
-- param chars: string(1,10)
-- param varchars: string(1,255)
-- param color: list(color)
-- param continent: list(continent)
-- param uuid: uuid
-- param uuid_bin: uuid
-- param text: string(1,16)
-- param year: year(1999,2035)
-- param binary: string(5,50)
-- param varbinary: string(5,255)
-- param status: enum(main.enum_field)
-- param perm: set(main.set_field)
-- param active: int(0,1)
-- The two statements run in order as statement_seq 0 and 1 of the event and
-- share every value: the row deleted is the row inserted again. ON DUPLICATE
-- KEY UPDATE keeps the insert idempotent when another thread got there first.
DELETE m FROM {{m}} AS m WHERE m.id = {{id}};
INSERT INTO {{m}} (
  id, l1_id, l2_id, l3_id, l4_id, l5_id, small_number, integer_number,
  myvalue, decimal_number, float_number, char_field, varchar_field, color,
  continent, uuid, uuid_bin, text_field, datetime_field, timestamp_field,
  year_field, binary_field, varbinary_field, enum_field, set_field,
  is_active)
VALUES (
  {{id}}, {{l1}}, {{l2}}, {{l3}}, {{l4}}, {{l5}}, {{small}}, {{integer}},
  {{myvalue}}, {{cents}} / 100, {{float}} / 1000, {{chars}}, {{varchars}},
  {{color}}, {{continent}}, REVERSE({{uuid}}),
  UNHEX(REPLACE({{uuid_bin}}, '-', '')), {{text}}, NOW(), NOW(), {{year}},
  {{binary}}, {{varbinary}}, {{status}}, {{perm}}, {{active}})
ON DUPLICATE KEY UPDATE
  l1_id = VALUES(l1_id), l2_id = VALUES(l2_id), l3_id = VALUES(l3_id),
  l4_id = VALUES(l4_id), l5_id = VALUES(l5_id),
  small_number = VALUES(small_number),
  integer_number = VALUES(integer_number), myvalue = VALUES(myvalue),
  decimal_number = VALUES(decimal_number),
  float_number = VALUES(float_number), char_field = VALUES(char_field),
  varchar_field = VALUES(varchar_field), color = VALUES(color),
  continent = VALUES(continent), uuid = VALUES(uuid),
  uuid_bin = VALUES(uuid_bin), text_field = VALUES(text_field),
  datetime_field = VALUES(datetime_field),
  timestamp_field = VALUES(timestamp_field),
  year_field = VALUES(year_field), binary_field = VALUES(binary_field),
  varbinary_field = VALUES(varbinary_field),
  enum_field = VALUES(enum_field), set_field = VALUES(set_field),
  is_active = VALUES(is_active);
