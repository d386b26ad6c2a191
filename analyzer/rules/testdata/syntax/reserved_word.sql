-- scenario: reserved_word
-- param m: table(main)
-- A reserved word used as a name: the error is at the word, not after it.
SELECT m.id AS rank FROM {{m}} AS m;
-- want 16-20 "rank is a reserved word in MySQL 8 \(MariaDB takes it as a name\): write `rank` to use it as a name"
