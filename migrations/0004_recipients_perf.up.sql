-- Send-engine write path (issue 3 benchmarks).
--
-- 1. Recipient status changes become HOT updates. A recipient row is updated three
--    times (claimed 5 → 7, recorded 7 → 0/6, receipt → 1/2/3). PostgreSQL can
--    update a row in place (HOT: no new index entries) only when no indexed column
--    changes, partial-index predicates included, and the page has room for the new
--    version. status and updated_at therefore leave every index: the batch index
--    becomes (send_id, batch, id), which serves the gateway's claim (filtering
--    status on the heap of at most one batch), the reports' pages in (batch, id)
--    order and the export's keyset; the sweeper finds work in flight through
--    recipient_claims and the sends' counters instead of a partial index. The
--    updates of a chunk touch whole pages at once, and the old versions are still
--    live while the statement runs, so a page needs room for a second copy of its
--    rows: fillfactor 50 (measured: 95% of the updates HOT, against 0 before, and
--    the table ends smaller than the bloated one of fillfactor 100).
DROP INDEX IF EXISTS recipients_send_batch_idx;
DROP INDEX IF EXISTS recipients_send_status_idx;
DROP INDEX IF EXISTS recipients_inflight_idx;
CREATE INDEX recipients_send_batch_idx ON recipients (send_id, batch, id);
ALTER TABLE recipients SET (fillfactor = 50);

-- The receipt sets message_ids.stat once per row (not indexed): same reasoning.
ALTER TABLE message_ids SET (fillfactor = 50);

-- 2. Recipients a gateway claimed (status 7), one row per claimed chunk. ids are the
--    chunk's recipients in submission order. The gateway hands ids[1:handed] at most
--    to the SMSC and raises handed (a grant, refused once the send is stopped or
--    paused or the row is gone) before it goes further; renewed_at moves while the
--    gateway lives. When renewed_at is older than the sweeper's grace, the gateway
--    is taken as dead: the claimed rows within handed have an unknown outcome
--    (reconciled by receipt), the ones past it were never submitted and are queued
--    again. The row is deleted with the chunk's last recording.
CREATE TABLE recipient_claims (
    id         bigserial PRIMARY KEY,
    send_id    bigint NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
    batch      int NOT NULL,
    operator   text NOT NULL,
    ids        bigint[] NOT NULL,
    handed     int NOT NULL DEFAULT 0,
    gateway    text NOT NULL DEFAULT '',
    claimed_at timestamptz NOT NULL DEFAULT now(),
    renewed_at timestamptz NOT NULL DEFAULT now()
) WITH (fillfactor = 50);
CREATE INDEX recipient_claims_send_idx ON recipient_claims (send_id);

-- 3. The sweeper reads, every second, the expanded sends not finished yet (those
--    with work left for a gateway, or to be closed); it looks for stalled work of
--    an idle send at most once per grace period, swept_at being when it last did.
--    Counter updates change neither status nor finished_at: still HOT.
ALTER TABLE sends ADD COLUMN swept_at timestamptz;
CREATE INDEX sends_unfinished_idx ON sends (status) WHERE finished_at IS NULL AND expanded_at IS NOT NULL;

-- 4. The accept path stores up to 100,000 numbers per send: lz4 compresses them
--    about twice as fast as the default pglz. Servers built without lz4 keep pglz.
DO $$
BEGIN
    ALTER TABLE sends ALTER COLUMN numbers SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not available; sends.numbers stays pglz';
END
$$;
