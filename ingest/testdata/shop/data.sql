-- Deterministic rows for shop/schema.sql: 1,000 customers, 5,000 orders,
-- 15,000 order lines, made from a cross join of digits (every server
-- runs it: no sequence tables, no recursion limit).
INSERT INTO customers (id, email, country, tier, created_at)
SELECT n + 1, CONCAT('c', n + 1, '@example.com'),
       ELT(1 + n % 6, 'US', 'DE', 'FR', 'BR', 'JP', 'IN'),
       ELT(1 + n % 10 DIV 7 + n % 10 DIV 9, 'free', 'pro', 'enterprise'),
       '2025-01-01' + INTERVAL n HOUR
FROM (SELECT a.d + 10 * b.d + 100 * c.d AS n
      FROM (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) a,
           (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) b,
           (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c) digits;

INSERT INTO orders (id, customer_id, status, total_cents, ordered_at)
SELECT n + 1, 1 + (n * 7919) % 1000,
       ELT(1 + n % 4, 'new', 'paid', 'shipped', 'cancelled'),
       500 + (n * 104729) % 50000,
       '2025-06-01' + INTERVAL n * 17 MINUTE
FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d AS n
      FROM (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) a,
           (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) b,
           (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c,
           (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) e) digits;

INSERT INTO order_items (order_id, line, sku, quantity, price_cents)
SELECT o.id, l.line, CONCAT('SKU-', LPAD(1 + (o.id * 31 + l.line * 7) % 300, 4, '0')),
       1 + (o.id + l.line) % 5, 100 + (o.id * l.line * 13) % 9900
FROM orders o, (SELECT 1 line UNION ALL SELECT 2 UNION ALL SELECT 3) l;

ANALYZE TABLE customers, orders, order_items;
