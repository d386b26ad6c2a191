-- A user's schema file: only CREATE TABLE statements count.
SET NAMES utf8mb4;
DROP TABLE IF EXISTS orders;

CREATE TABLE customers (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  email VARCHAR(190) NOT NULL UNIQUE,
  tier ENUM('free','pro','it''s') NOT NULL DEFAULT 'free',
  balance DECIMAL(12,4) UNSIGNED DEFAULT 0,
  created DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3),
  flags SET('a','b') DEFAULT NULL,
  note TEXT CHARACTER SET latin1
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

/* orders reference customers */
CREATE TABLE IF NOT EXISTS `orders` (
  `order_id` BIGINT NOT NULL,
  `customer_id` INT UNSIGNED,
  `total` DOUBLE,
  `placed` TIMESTAMP NULL,
  PRIMARY KEY (`order_id`),
  KEY (`customer_id`, `placed`),
  CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customers (id)
);

INSERT INTO customers (email) VALUES ('a;b@example.com');
