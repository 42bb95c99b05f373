-- Link tracking (spec §5 "UTM link", §6 plan gate, §7 /panel/link_tracker): the
-- account's tracked links, and their clicks. A text names a link by {link:ID}; each
-- recipient gets its own short code (pkg/shortlink), so a click names its
-- recipient, whose send and operator the stats group by.

-- The plan gate: tracking needs an upgraded panel (staff turn it on).
ALTER TABLE accounts ADD COLUMN link_tracking boolean NOT NULL DEFAULT false;

CREATE TABLE tracked_links (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    title        text NOT NULL,
    url          text NOT NULL,
    utm_source   text NOT NULL DEFAULT '',
    utm_medium   text NOT NULL DEFAULT '',
    utm_campaign text NOT NULL DEFAULT '',
    created_by   bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- A removed link still redirects the texts already sent; it leaves the list.
    deleted_at   timestamptz
);
CREATE INDEX tracked_links_account ON tracked_links (account_id, id DESC) WHERE deleted_at IS NULL;

-- Every click (the total), written in batches by the redirect's recorder.
CREATE TABLE link_clicks (
    account_id   bigint NOT NULL,
    link_id      bigint NOT NULL,
    send_id      bigint NOT NULL,
    recipient_id bigint NOT NULL,
    operator     text NOT NULL,
    clicked_at   timestamptz NOT NULL
);
CREATE INDEX link_clicks_link ON link_clicks (link_id, clicked_at);
CREATE INDEX link_clicks_send ON link_clicks (send_id);

-- The first click of each recipient on each link (the unique count): the key makes
-- it exact whatever the concurrency and however many API instances record.
CREATE TABLE link_visitors (
    link_id      bigint NOT NULL,
    recipient_id bigint NOT NULL,
    send_id      bigint NOT NULL,
    operator     text NOT NULL,
    first_at     timestamptz NOT NULL,
    PRIMARY KEY (link_id, recipient_id)
);
CREATE INDEX link_visitors_send ON link_visitors (send_id);
