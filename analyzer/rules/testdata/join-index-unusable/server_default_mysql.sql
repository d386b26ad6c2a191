-- scenario: server_default_mysql
-- lint-test: flavor=mysql schema=collations.ddl
-- A table that names no character set follows the server's default:
-- utf8mb4_0900_ai_ci on MySQL 8, utf8mb4's default there too.
SELECT plain.id FROM plain
JOIN dflt ON dflt.c = plain.c
JOIN ci ON ci.c = plain.c -- want "ci.c is utf8mb4_general_ci and plain.c is utf8mb4_0900_ai_ci .the server's default: its table names no character set., and the server refuses"
JOIN bin ON bin.c = plain.c; -- want "bin.c is utf8mb4_bin and plain.c is utf8mb4_0900_ai_ci .the server's default.*: they compare with utf8mb4_bin; plain_c on plain.c. cannot serve"
