-- The API-call log (docs/webhooks.md, "API-call log"): calls made with an API key,
-- written in batches by the API, bodies truncated and secrets redacted, kept 30 days.
CREATE TABLE api_calls (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL,
    api_key_id  bigint NOT NULL,
    method      text NOT NULL,
    path        text NOT NULL,
    query       text NOT NULL DEFAULT '',
    ip          text NOT NULL DEFAULT '',
    status      int NOT NULL,
    latency_us  bigint NOT NULL,
    req_body    text NOT NULL DEFAULT '',
    resp_body   text NOT NULL DEFAULT '',
    request_id  text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_calls_account ON api_calls (account_id, id DESC);
-- The purge's range: calls are appended in time order, so a BRIN index serves it
-- at a fraction of a b-tree's cost per insert.
CREATE INDEX api_calls_created ON api_calls USING brin (created_at);
