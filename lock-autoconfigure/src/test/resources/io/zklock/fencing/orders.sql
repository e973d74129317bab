CREATE TABLE orders (
    id            BIGINT PRIMARY KEY,
    status        VARCHAR(20) NOT NULL,
    paid          BOOLEAN     NOT NULL DEFAULT FALSE,
    fencing_token BIGINT      NOT NULL DEFAULT 0
);
INSERT INTO orders (id, status) VALUES (42, 'NEW');
