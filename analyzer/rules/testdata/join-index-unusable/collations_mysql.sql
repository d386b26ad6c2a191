-- scenario: collations_mysql
-- lint-test: flavor=mysql schema=collations.ddl
SELECT ci.id FROM ci
JOIN bin ON bin.c = ci.c -- want "join predicate bin.c = ci.c: bin.c is utf8mb4_bin and ci.c is utf8mb4_general_ci: they compare with utf8mb4_bin; ci_c on ci.c. cannot serve"
JOIN uni ON uni.c = ci.c -- want "uni.c is utf8mb4_unicode_ci and ci.c is utf8mb4_general_ci, and the server refuses to compare two collations of one character set .error 1267"
JOIN lat ON lat.c = ci.c -- want "lat.c is latin1_swedish_ci and ci.c is utf8mb4_general_ci: one side is converted to the other's character set; lat_c on lat.c. cannot serve"
JOIN latnoix ON latnoix.c = ci.c
JOIN dflt ON dflt.c = ci.c -- want "dflt.c is utf8mb4_0900_ai_ci and ci.c is utf8mb4_general_ci, and the server refuses"
JOIN dflt AS d2 ON d2.d = dflt.c
JOIN plain ON plain.c = ci.c; -- want "plain.c is utf8mb4_0900_ai_ci .the server's default: its table names no character set. and ci.c is utf8mb4_general_ci, and the server refuses"
