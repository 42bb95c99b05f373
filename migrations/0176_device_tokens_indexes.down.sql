-- migrate: no-transaction
CREATE INDEX CONCURRENTLY IF NOT EXISTS sessions_user_ip_idx ON sessions (user_id, ip);
DROP INDEX CONCURRENTLY IF EXISTS users_mobile_idx;
