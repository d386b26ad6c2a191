-- WERE for WHERE
SELECT a FROM t1 WERE a = 1
-- want 18-22 "WERE is not a keyword; did you mean WHERE\?"
