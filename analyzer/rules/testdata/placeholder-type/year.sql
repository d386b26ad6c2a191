-- scenario: year
-- param m: table(main)
-- param y: year(2000,2010)
-- param n: int(1, 50)
-- A year or an integer is bound as a number: against a string column
-- the server converts every row's value, its index cannot serve, and
-- '2005x' matches 2005.
SELECT m.id FROM {{m}} AS m
WHERE m.varchar_field = {{y}} -- want 25-30 "..y.. compared with main1.varchar_field: a year compared with a VARCHAR column converts every row's string to a number"
  AND m.year_field BETWEEN {{y}} AND 2020
  AND m.color <> {{n}} -- want "..n.. compared with main1.color: an integer compared with a VARCHAR column"
  AND m.small_number = {{n}};
