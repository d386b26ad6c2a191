-- COLUMN_GET(blob, name AS type): dynamic columns
SELECT a, COLUMN_GET(d, 'color' AS CHAR(10)) AS color FROM t3
-- want[mysql] 11-45 "COLUMN_GET/COLUMN_CREATE/COLUMN_ADD \.\.\. AS type is MariaDB syntax, which MySQL rejects"
