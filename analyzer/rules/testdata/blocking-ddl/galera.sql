-- lint-test: galera
ALTER TABLE main1 ADD INDEX idx_x (color); -- want "ALTER TABLE on a Galera/PXC cluster runs under total order isolation"
CREATE INDEX idx_y ON main1 (continent); -- want "CREATE INDEX on a Galera/PXC cluster"
ALTER TABLE main1 MODIFY small_number INT; -- want "copies the table; use pt-online-schema-change .gh-ost does not support Galera."
TRUNCATE TABLE main1; -- want "TRUNCATE TABLE on a Galera/PXC cluster runs under total order isolation"
LOCK TABLES main1 READ;
UNLOCK TABLES;
SELECT COUNT(*) FROM main1;
