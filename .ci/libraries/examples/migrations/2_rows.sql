INSERT INTO items (id, name) VALUES (1, 'first'), (2, 'second');
