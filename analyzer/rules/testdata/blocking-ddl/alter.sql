ALTER TABLE main1 ADD COLUMN note VARCHAR(20), ALGORITHM=INSTANT;
ALTER TABLE main1 ADD INDEX idx_note (color, year_field), ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE main1 MODIFY small_number INT; -- want "changing column small_number from SMALLINT to INT copies the table"
ALTER TABLE level1 MODIFY continent VARCHAR(300); -- want "VARCHAR.45. to VARCHAR.300. copies the table"
ALTER TABLE level1 MODIFY continent VARCHAR(100);
ALTER TABLE main1 CONVERT TO CHARACTER SET utf8mb4; -- want "CONVERT TO CHARACTER SET copies the table"
ALTER TABLE main1 ADD FULLTEXT INDEX ft (varchar_field); -- want "FULLTEXT index is built with LOCK=SHARED"
CREATE INDEX idx_c ON main1 (color) LOCK=EXCLUSIVE; -- want "asks for LOCK=EXCLUSIVE"
ALTER TABLE main1 DROP PRIMARY KEY; -- want "dropping the primary key"
ALTER TABLE main1 MODIFY enum_field ENUM('active','inactive','pending','archived');
