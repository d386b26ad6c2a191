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
