-- scenario: order_without_by
-- param m: table(main)
-- ORDER is a keyword, not a misspelt OUTER: the error is at what follows it.
SELECT m.id FROM {{m}} AS m ORDER m.id;
-- want 35-36 "syntax error near \"m.id;\": ORDER must be followed by BY"
