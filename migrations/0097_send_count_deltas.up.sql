-- The hot paths (a gateway recording outcomes, a worker applying receipts) no
-- longer update their sends' counters in place: every one of their transactions
-- locked the same sends rows until its commit was flushed, so with several
-- gateways and workers they queued behind each other (docs/scaling.md). They
-- append deltas here instead, in the same transaction, and one worker at a time
-- folds them into sends a few times a second (send.FoldCounts).
CREATE TABLE send_count_deltas (
    id          bigserial PRIMARY KEY,
    send_id     bigint NOT NULL,
    submitted   int NOT NULL DEFAULT 0,
    rejected    int NOT NULL DEFAULT 0,
    partial     int NOT NULL DEFAULT 0,
    delivered   int NOT NULL DEFAULT 0,
    undelivered int NOT NULL DEFAULT 0
);

-- Both this table and pending_receipts are queues: rows come and go many times a
-- second under load, and a scan of either walks every dead row until a vacuum
-- clears them (a minute by default: tens of milliseconds per look at 3 app
-- pairs). Vacuum them as soon as a few thousand rows have died.
ALTER TABLE send_count_deltas SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0);
ALTER TABLE pending_receipts SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0);
