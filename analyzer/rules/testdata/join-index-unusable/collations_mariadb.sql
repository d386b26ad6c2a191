-- scenario: collations_mariadb
-- lint-test: flavor=mariadb schema=collations.ddl
SELECT ci.id FROM ci
JOIN bin ON bin.c = ci.c
JOIN uni ON uni.c = ci.c -- want "uni.c is utf8mb4_unicode_ci and ci.c is utf8mb4_general_ci, and the server refuses"
JOIN lat ON ci.c = lat.c -- want "ci.c = lat.c: ci.c is utf8mb4_general_ci and lat.c is latin1_swedish_ci: one side is converted to the other's character set; lat_c on lat.c. cannot serve"
JOIN dflt ON dflt.c = ci.c
JOIN dflt AS d2 ON d2.d = dflt.c;
SELECT dflt.id FROM dflt JOIN uni ON uni.c = dflt.c; -- want "uni.c is utf8mb4_unicode_ci and dflt.c is utf8mb4_general_ci, and the server refuses"
