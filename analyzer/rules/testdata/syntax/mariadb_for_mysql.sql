-- scenario: mariadb_for_mysql
-- param m: table(main)
-- MariaDB's syntax in a corpus that targets MySQL: an error that names it.
DELETE FROM {{m}} WHERE id = 3 RETURNING id, myvalue;
-- want 32-53 "DELETE/INSERT ... RETURNING is MariaDB syntax, which MySQL rejects \(lint targets MySQL: give --flavor mariadb"
