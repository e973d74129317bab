-- zklock: the newest fencing token each guarded resource has accepted, one row per resource
-- (io.zklock.fencing.JdbcFencingTokens). Runs as it is on PostgreSQL and H2 2.x, and is plain
-- SQL for other databases with a BIGINT type.
CREATE TABLE zklock_fencing_token (
    resource      VARCHAR(512) NOT NULL PRIMARY KEY,
    fencing_token BIGINT       NOT NULL
);
