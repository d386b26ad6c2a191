-- a character set introducer the TiDB parser lacks
SELECT a FROM t1 WHERE c LIKE _cp866'a%'
