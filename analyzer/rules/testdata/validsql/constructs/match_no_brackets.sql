-- MATCH col AGAINST without brackets around the column
SELECT a FROM t1 WHERE MATCH c AGAINST ('word' IN BOOLEAN MODE)
