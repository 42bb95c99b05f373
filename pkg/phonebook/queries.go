package phonebook

// The longer SQL of the contacts domain. Every query names the account ($1).

const (
	// qInsertContacts adds a batch (a JSON array of contactRow) to phonebook $2;
	// numbers already there are skipped.
	qInsertContacts = `INSERT INTO contacts (account_id, phonebook_id, mobile, name, gender, birth_date, tag_ids, features)
SELECT $1, $2, x.mobile, coalesce(x.name, ''), coalesce(x.gender, ''), x.birth_date,
       coalesce(x.tag_ids, '{}'), coalesce(x.features, '{}')
FROM jsonb_to_recordset($3::jsonb) AS x(mobile text, name text, gender text, birth_date date, tag_ids bigint[], features jsonb)
ON CONFLICT (phonebook_id, mobile) DO NOTHING`

	// qUpdateContact changes contact $2 of phonebook $3, moving it to $4. A NULL
	// leaves a column as it is; $8 says whether the birth date ($9) was given;
	// features are merged with $11 and lose the keys $12.
	qUpdateContact = `UPDATE contacts SET phonebook_id = $4,
       mobile = coalesce($5, mobile),
       name = coalesce($6, name),
       gender = coalesce($7, gender),
       birth_date = CASE WHEN $8 THEN $9::date ELSE birth_date END,
       tag_ids = coalesce($10, tag_ids),
       features = (features || $11::jsonb) - $12::text[],
       updated_at = now()
WHERE account_id = $1 AND id = $2 AND phonebook_id = $3`

	// qContactCols reads contacts (alias c) with their phonebook's name.
	qContactCols = `SELECT c.id, c.phonebook_id, p.name, c.mobile, c.name, c.gender, c.birth_date, c.tag_ids, c.features, c.created_at
FROM contacts c JOIN phonebooks p ON p.id = c.phonebook_id`

	// qCountAll and qCountSome size every phonebook of the account, or phonebooks $2:
	// rows, unique numbers, and unique numbers on the send blacklist or cancel-11.
	qCountAll = `SELECT count(*), count(DISTINCT mobile),
       (SELECT count(DISTINCT b.mobile) FROM blacklist b
        WHERE b.account_id = $1 AND b.kind IN ('send', 'cancel11')
          AND EXISTS (SELECT 1 FROM contacts c WHERE c.account_id = $1 AND c.mobile = b.mobile))
FROM contacts WHERE account_id = $1`
	qCountSome = `SELECT count(*), count(DISTINCT mobile),
       (SELECT count(DISTINCT b.mobile) FROM blacklist b
        WHERE b.account_id = $1 AND b.kind IN ('send', 'cancel11')
          AND EXISTS (SELECT 1 FROM contacts c WHERE c.phonebook_id = ANY($2) AND c.mobile = b.mobile))
FROM contacts WHERE account_id = $1 AND phonebook_id = ANY($2)`
)
