-- SELECT ... INTO @var at the end
SELECT a FROM t1 WHERE a = 1 INTO @x
