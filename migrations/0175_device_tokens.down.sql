DELETE FROM challenges WHERE purpose = 'login_code';
ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check CHECK (purpose IN ('mobile_old', 'mobile_new',
    'apikey', 'login', 'reset', 'change_password', 'register', 'external', 'invite'));
ALTER TABLE challenges DROP COLUMN trusted;
DROP TABLE device_tokens;
