-- scenario: comments
-- param m: table(main)
-- param c: list(continent)
-- A placeholder inside a comment is not a use: the corpus drops comments
-- from the SQL it sends, so none of these is a table in a value's place.
SELECT m.id -- reads {{m}} by {{c}}
FROM {{m}} AS m /* {{m}} again */
WHERE m.continent = {{c}} # and {{m}}
  AND m.id = {{m}}; -- want "table parameter ..m.. used where a value goes"
