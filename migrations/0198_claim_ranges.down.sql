DELETE FROM settings WHERE key = 'claim_mode';
