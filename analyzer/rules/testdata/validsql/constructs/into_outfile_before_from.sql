-- INTO OUTFILE before FROM
SELECT a INTO OUTFILE '/nonexistent/validsql.out' FROM t1
