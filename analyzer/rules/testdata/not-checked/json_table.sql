-- scenario: json_table
-- JSON_TABLE is MySQL 8's and MariaDB's: not checked at either flavour.
SELECT jt.a FROM JSON_TABLE('[1, 2]', '$[*]' COLUMNS (a INT PATH '$')) AS jt;
-- want "not checked: SQL this analyzer cannot parse \(JSON_TABLE\)"
