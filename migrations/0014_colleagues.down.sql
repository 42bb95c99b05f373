DELETE FROM challenges WHERE purpose = 'invite';
ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check
    CHECK (purpose IN ('login', 'reset', 'change_password', 'register', 'external'));

DROP INDEX users_role_idx;
ALTER TABLE users DROP CONSTRAINT users_role_id_fkey;
ALTER TABLE users ADD CONSTRAINT users_role_id_fkey FOREIGN KEY (role_id) REFERENCES roles(id) ON DELETE SET NULL;

ALTER TABLE users DROP COLUMN national_id;
