-- Short-link codes carry a six-character HMAC from now on (issue 38 item 18). Codes
-- already sent carry two characters; the redirect still accepts such a code, but only
-- for a send made before this migration: the newest such send is kept here.
INSERT INTO settings (key, value)
SELECT 'shortlink_legacy_send', to_jsonb(coalesce(max(id), 0)) FROM sends
ON CONFLICT (key) DO NOTHING;
