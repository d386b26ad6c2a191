-- SELECT ... INTO @var before FROM
SELECT a, b INTO @x, @y FROM t1 WHERE a = 1
