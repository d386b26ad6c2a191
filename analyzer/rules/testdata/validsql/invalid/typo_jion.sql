-- JION for JOIN: the parser reads JION as an alias of t1 and stops at t2
SELECT t1.a FROM t1 JION t2 ON t1.a = t2.a
-- want 21-25 "JION is not a keyword; did you mean JOIN\?"
