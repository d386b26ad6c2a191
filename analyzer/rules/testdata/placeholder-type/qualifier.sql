-- scenario: qualifier
-- param m: table(main)
-- param v: int(1,10)
UPDATE {{m}} JOIN level1 ON {{m}}.l1_id = level1.id
SET {{m}}.small_number = {{v}}
WHERE {{m}}.id = level1.parent_id AND {{m}}.integer_number > {{m}}; -- want 62-67 "table parameter {{m}} used where a value goes"
