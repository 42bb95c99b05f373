-- Webhooks (docs/webhooks.md): an account's endpoints, the outbox of events to
-- deliver and the deliveries (one POST of up to a batch of events each), retried
-- with exponential back-off until the retry window ends, then dead-lettered.
CREATE TABLE webhook_endpoints (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    url         text NOT NULL,
    events      text[] NOT NULL,
    enabled     boolean NOT NULL DEFAULT true,
    secret      text NOT NULL, -- the signing key: shown once, needed to sign every POST
    description text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    deleted_at  timestamptz
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, id DESC) WHERE deleted_at IS NULL;

-- One POST: a batch of events to one endpoint. status: pending, delivered, dead.
CREATE TABLE webhook_deliveries (
    id           bigserial PRIMARY KEY,
    endpoint_id  bigint NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    account_id   bigint NOT NULL,
    events       int NOT NULL,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
    attempts     int NOT NULL DEFAULT 0,
    next_at      timestamptz NOT NULL DEFAULT now(),
    first_at     timestamptz NOT NULL DEFAULT now(), -- start of the retry window (a replay restarts it)
    last_status  int,
    last_error   text NOT NULL DEFAULT '',
    test         boolean NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_account ON webhook_deliveries (account_id, status, id DESC);

-- The outbox: one row per event and endpoint, written in the transaction of the
-- change it reports; delivery_id is set when a batch takes it.
CREATE TABLE webhook_events (
    id          bigserial PRIMARY KEY,
    endpoint_id bigint NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event       text NOT NULL,
    payload     jsonb NOT NULL,
    delivery_id bigint REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_unbatched ON webhook_events (endpoint_id, id) WHERE delivery_id IS NULL;
CREATE INDEX webhook_events_delivery ON webhook_events (delivery_id);

-- Send status changes are captured wherever they happen (accept, expand, stop,
-- finalise, sweeper) by a trigger that fires only when the status moves and only
-- writes for endpoints subscribed to send.status.
CREATE FUNCTION webhook_send_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_events (endpoint_id, event, payload)
    SELECT e.id, 'send.status', jsonb_build_object('send_id', NEW.id, 'status', NEW.status,
        'previous', OLD.status, 'recipients', NEW.recipients, 'delivered', NEW.delivered,
        'undelivered', NEW.undelivered, 'at', now())
    FROM webhook_endpoints e
    WHERE e.account_id = NEW.account_id AND e.enabled AND e.deleted_at IS NULL AND 'send.status' = ANY(e.events);
    RETURN NULL;
END $$;
CREATE TRIGGER sends_webhook_status AFTER UPDATE OF status ON sends
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION webhook_send_status();
