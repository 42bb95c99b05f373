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
