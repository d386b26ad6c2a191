-- Tables the statements of constructs/ and invalid/ name: with them a
-- server prepares every statement of constructs/ without an error.
CREATE TABLE t1 (
  a INT NOT NULL PRIMARY KEY,
  b INT,
  c VARCHAR(100),
  FULLTEXT KEY ft_c (c)
) ENGINE=InnoDB;

CREATE TABLE t2 (
  a INT NOT NULL PRIMARY KEY,
  b INT,
  c VARCHAR(100)
) ENGINE=InnoDB;

CREATE TABLE door (
  id INT NOT NULL PRIMARY KEY,
  `window` INT,
  `rank` INT,
  `lead` INT,
  `lag` INT,
  `dense_rank` INT,
  `row_number` INT
) ENGINE=InnoDB;

-- dynamic columns (COLUMN_GET)
CREATE TABLE t3 (
  a INT NOT NULL PRIMARY KEY,
  d BLOB
) ENGINE=InnoDB;

-- an application-time period (FOR PORTION OF), and a system-versioned
-- table (FOR SYSTEM_TIME): MariaDB's clauses in MariaDB's executable
-- comments, which the analyzer's schema reader skips
CREATE TABLE t4 (
  a INT NOT NULL,
  s DATE NOT NULL,
  e DATE NOT NULL
  /*M!100500 , PERIOD FOR p (s, e) */
) ENGINE=InnoDB;

CREATE TABLE t5 (
  a INT NOT NULL PRIMARY KEY
) ENGINE=InnoDB /*M!100300 WITH SYSTEM VERSIONING */;
