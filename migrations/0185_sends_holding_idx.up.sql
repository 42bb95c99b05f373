-- migrate: no-transaction
-- The sends holding money (accepted, not yet expanded: expansion settles the hold),
-- read at every Prometheus scrape of a worker (chapar_wallet_holds, docs/metrics.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS sends_holding ON sends (id) INCLUDE (quote) WHERE expanded_at IS NULL AND finished_at IS NULL;
