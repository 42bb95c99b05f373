DELETE FROM settings WHERE key = 'shortlink_legacy_send';
