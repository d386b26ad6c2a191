-- A small shop: three tables of its own, no main<N>, for the import and
-- any-schema tests and the walk-through of docs/scenarios.md.
CREATE TABLE customers (
  id INT NOT NULL,
  email VARCHAR(100) NOT NULL,
  country CHAR(2) NOT NULL,
  tier ENUM('free','pro','enterprise') NOT NULL DEFAULT 'free',
  created_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_email (email),
  KEY idx_country (country)
) ENGINE=InnoDB;

CREATE TABLE orders (
  id BIGINT NOT NULL,
  customer_id INT NOT NULL,
  status ENUM('new','paid','shipped','cancelled') NOT NULL,
  total_cents INT NOT NULL,
  ordered_at DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY idx_customer (customer_id),
  KEY idx_status_date (status, ordered_at)
) ENGINE=InnoDB;

CREATE TABLE order_items (
  order_id BIGINT NOT NULL,
  line SMALLINT NOT NULL,
  sku VARCHAR(20) NOT NULL,
  quantity SMALLINT NOT NULL,
  price_cents INT NOT NULL,
  PRIMARY KEY (order_id, line),
  KEY idx_sku (sku)
) ENGINE=InnoDB;
