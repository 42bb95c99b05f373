-- Colleagues (partners) and their invitations: a national id on users, invitation
-- codes among the challenges, and a role that still has colleagues cannot be deleted
-- (checked at the end of the statement, so deleting a whole account still cascades).

ALTER TABLE users ADD COLUMN national_id text NOT NULL DEFAULT '';

ALTER TABLE users DROP CONSTRAINT users_role_id_fkey;
ALTER TABLE users ADD CONSTRAINT users_role_id_fkey FOREIGN KEY (role_id) REFERENCES roles(id) ON DELETE NO ACTION;
CREATE INDEX users_role_idx ON users (role_id) WHERE role_id IS NOT NULL;

ALTER TABLE challenges DROP CONSTRAINT challenges_purpose_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_purpose_check
    CHECK (purpose IN ('login', 'reset', 'change_password', 'register', 'external', 'invite'));
