-- Developers' platform (docs/developers.md): a send may carry the client's own id
-- (local_id, unique per account) for status lookups; an account may hold one live
-- sandbox API key, and sends made with it are marked as sandbox.
ALTER TABLE sends ADD COLUMN local_id text;
ALTER TABLE sends ADD COLUMN sandbox boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX sends_local_id ON sends (account_id, local_id) WHERE local_id IS NOT NULL;

ALTER TABLE api_keys ADD COLUMN sandbox boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX api_keys_one_sandbox ON api_keys (account_id) WHERE sandbox AND revoked_at IS NULL;
