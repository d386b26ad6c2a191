-- scenario: server_default_mariadb
-- lint-test: flavor=mariadb schema=collations.ddl
-- A table that names no character set follows the server's default:
-- utf8mb4_general_ci on MariaDB 10.11.
SELECT plain.id FROM plain
JOIN ci ON ci.c = plain.c
JOIN uni ON uni.c = plain.c -- want "uni.c is utf8mb4_unicode_ci and plain.c is utf8mb4_general_ci .the server's default: its table names no character set., and the server refuses"
JOIN lat ON lat.c = plain.c; -- want "lat.c is latin1_swedish_ci and plain.c is utf8mb4_general_ci .the server's default.*: one side is converted to the other's character set; lat_c on lat.c. cannot serve"
