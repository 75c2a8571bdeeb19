INSERT INTO items (id, nope) VALUES (1, 'x');
