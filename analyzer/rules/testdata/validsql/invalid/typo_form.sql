-- FORM for FROM
SELECT a FORM t1 WHERE a = 1
-- want 10-14 "FORM is not a keyword; did you mean FROM\?"
