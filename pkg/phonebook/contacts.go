package phonebook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// Genders of a contact ("" is unknown).
const (
	GenderMale   = "male"
	GenderFemale = "female"
)

// Contact is one number in one phonebook.
type Contact struct {
	ID            int64          `json:"id"`
	PhonebookID   int64          `json:"phonebook_id"`
	PhonebookName string         `json:"phonebook_name"`
	Number        string         `json:"number"`
	Name          string         `json:"name"`
	Gender        string         `json:"gender"`
	BirthDate     *string        `json:"birth_date"`
	Tags          []string       `json:"tags"`
	Features      map[string]any `json:"features"`
	Blacklists    []ListMark     `json:"blacklists"`
	CreatedAt     time.Time      `json:"created_at"`

	tagIDs   []int64
	features []byte
}

// ListMark says a contact's number is on a list, since when.
type ListMark struct {
	Kind      string    `json:"kind"`
	CreatedAt time.Time `json:"created_at"`
}

// Text is a string field that also accepts a JSON number (a mobile sent as 9121234567).
type Text string

// UnmarshalJSON takes a string, a number or null.
func (t *Text) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text(s)
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*t = Text(n.String())
	return nil
}

// ContactInput is a contact as the API receives it. In an update a field left out
// (or null) keeps its value; an empty birth_date clears it, a null feature value
// removes it.
type ContactInput struct {
	Number    *Text                      `json:"number"`
	Name      *string                    `json:"name"`
	Gender    *string                    `json:"gender"`
	BirthDate *string                    `json:"birth_date"`
	Tags      *[]string                  `json:"tags"`
	Features  map[string]json.RawMessage `json:"features"`
}

// changed summarises an update for the audit log: the fields given and a move
// between phonebooks (values stay out of the log).
func (in ContactInput) changed(from, to int64) map[string]any {
	var fields []string
	for name, given := range map[string]bool{"number": in.Number != nil, "name": in.Name != nil, "gender": in.Gender != nil,
		"birth_date": in.BirthDate != nil, "tags": in.Tags != nil, "features": len(in.Features) > 0} {
		if given {
			fields = append(fields, name)
		}
	}
	slices.Sort(fields)
	out := map[string]any{"fields": fields}
	if from != to {
		out["phonebook_from"], out["phonebook_to"] = from, to
	}
	return out
}

// contactRow is a checked contact.
type contactRow struct {
	Mobile    string         `json:"mobile"`
	Name      string         `json:"name"`
	Gender    string         `json:"gender"`
	BirthDate *string        `json:"birth_date"`
	TagIDs    []int64        `json:"tag_ids"`
	Features  map[string]any `json:"features"`

	tags    []string  // names, to resolve to TagIDs
	dropped []string  // feature keys to remove (update)
	birth   time.Time // the birth date of an imported row (zero: none)
}

// checkContact validates a contact. The number is required to add one; in an
// update every field left out (nil) stays unchecked and unchanged.
func (s *Service) checkContact(in ContactInput, fs featureSet, update bool) (contactRow, apperr.Fields) {
	errs := apperr.Fields{}
	r := contactRow{Features: map[string]any{}}
	if in.Number != nil || !update {
		var raw string
		if in.Number != nil {
			raw = string(*in.Number)
		}
		m, ok := validate.NormalizeMobile(raw)
		if !ok {
			errs.Add("number", validate.MsgMobile)
		}
		r.Mobile = m
	}
	if in.Name != nil {
		r.Name = normalizeText(*in.Name)
		if runeLen(r.Name) > maxContactName {
			errs.Add("name", MsgContactName)
		}
	}
	if in.Gender != nil {
		g, ok := parseGender(*in.Gender)
		if !ok {
			errs.Add("gender", MsgGender)
		}
		r.Gender = g
	}
	if in.BirthDate != nil && strings.TrimSpace(*in.BirthDate) != "" {
		d, ok := birthDate(*in.BirthDate, false, s.now())
		if !ok {
			errs.Add("birth_date", MsgBirthDate)
		} else {
			v := formatDate(d)
			r.BirthDate = &v
		}
	}
	if in.Tags != nil {
		var ok bool
		if r.tags, ok = tagNames(*in.Tags); !ok {
			errs.Add("tags", MsgTagName)
		}
	}
	for title, raw := range in.Features {
		f, msg := fs.usable(title)
		if f == nil {
			errs.Add(fs.field("features", title), msg)
			continue
		}
		v, msg := f.apiValue(raw)
		switch {
		case msg != "":
			errs.Add(fs.field("features", title), msg)
		case v == nil:
			r.dropped = append(r.dropped, f.key())
		default:
			r.Features[f.key()] = v
		}
	}
	return r, errs
}

// parseGender reads a gender as the API or a file writes it.
func parseGender(s string) (string, bool) {
	switch strings.ToLower(normalizeText(s)) {
	case "":
		return "", true
	case GenderMale, "m", "man", "مرد", "آقا", "اقا", "مذکر":
		return GenderMale, true
	case GenderFemale, "f", "woman", "زن", "خانم", "مونث", "مؤنث":
		return GenderFemale, true
	}
	return "", false
}

// tagNames cleans a contact's tags: trimmed, without repeats, none blank or too long.
func tagNames(in []string) ([]string, bool) {
	out := make([]string, 0, len(in))
	for _, t := range in {
		t = normalizeText(t)
		if t == "" || runeLen(t) > maxTagName {
			return nil, false
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, true
}

// AddResult is the outcome of add-list-new.
type AddResult struct {
	Added   int              `json:"added"`
	Skipped int              `json:"skipped"`
	Invalid []InvalidContact `json:"invalid"`
}

// InvalidContact is a contact of the request that was not added.
type InvalidContact struct {
	Index  int                 `json:"index"`
	Errors map[string][]string `json:"errors"`
}

// AddContacts adds up to MaxAddContacts contacts to a phonebook. Invalid ones are
// reported by index; numbers already in the phonebook (or repeated in the request)
// are skipped. A request of one contact answers 422 when it is invalid and 409 when
// its number is already in the phonebook.
func (s *Service) AddContacts(ctx context.Context, a Actor, phonebookID int64, in []ContactInput) (AddResult, error) {
	res := AddResult{Invalid: []InvalidContact{}}
	switch {
	case phonebookID <= 0:
		return res, apperr.Field("phonebook_id", MsgPhonebookRequired)
	case len(in) == 0:
		return res, apperr.Field("contacts", MsgContactsRequired)
	case len(in) > MaxAddContacts:
		return res, apperr.Field("contacts", MsgTooManyContacts)
	}
	fs, err := s.loadFeatures(ctx, s.pool, a.AccountID)
	if err != nil {
		return res, err
	}
	rows := make([]contactRow, 0, len(in))
	seen := make(map[string]bool, len(in))
	for i, c := range in {
		r, errs := s.checkContact(c, fs, false)
		if len(errs) > 0 {
			if len(in) == 1 {
				return res, errs.Err()
			}
			res.Invalid = append(res.Invalid, InvalidContact{Index: i, Errors: errs})
			continue
		}
		if seen[r.Mobile] {
			res.Skipped++
			continue
		}
		seen[r.Mobile] = true
		rows = append(rows, r)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockPhonebooks(ctx, tx, a.AccountID, phonebookID); err != nil {
			return err
		}
		if len(rows) == 0 {
			return nil
		}
		if err := s.resolveTags(ctx, tx, a.AccountID, rows); err != nil {
			return err
		}
		batch, err := json.Marshal(rows)
		if err != nil {
			return fmt.Errorf("encode contacts: %w", err)
		}
		tag, err := tx.Exec(ctx, qInsertContacts, a.AccountID, phonebookID, batch)
		if err != nil {
			return fmt.Errorf("insert contacts: %w", err)
		}
		res.Added = int(tag.RowsAffected())
		res.Skipped += len(rows) - res.Added
		if err := addMembers(ctx, tx, a.AccountID, []int64{phonebookID}, []int32{int32(res.Added)}); err != nil {
			return err
		}
		return a.audit(ctx, tx, "contact.add", strconv.FormatInt(phonebookID, 10),
			map[string]any{"added": res.Added, "skipped": res.Skipped, "invalid": len(res.Invalid)})
	})
	if err != nil {
		return AddResult{}, err
	}
	if len(in) == 1 && res.Added == 0 {
		return AddResult{}, conflict("number", MsgNumberTaken)
	}
	return res, nil
}

// lockPhonebooks locks the account's phonebooks (in id order, so concurrent writers
// never deadlock) before their members change; any id not found is a 404.
func lockPhonebooks(ctx context.Context, tx pgx.Tx, accountID int64, ids ...int64) error {
	ids = uniqueIDs(ids)
	slices.Sort(ids)
	tag, err := tx.Exec(ctx, `SELECT id FROM phonebooks WHERE account_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE`,
		accountID, ids)
	if err != nil {
		return fmt.Errorf("lock phonebooks: %w", err)
	}
	if int(tag.RowsAffected()) != len(ids) {
		return apperr.ErrNotFound
	}
	return nil
}

// addMembers adds deltas to the member counts of phonebooks.
func addMembers(ctx context.Context, tx pgx.Tx, accountID int64, ids []int64, deltas []int32) error {
	_, err := tx.Exec(ctx, `UPDATE phonebooks p SET members = p.members + x.n
		FROM unnest($2::bigint[], $3::int[]) AS x(id, n) WHERE p.account_id = $1 AND p.id = x.id AND x.n <> 0`,
		accountID, ids, deltas)
	if err != nil {
		return fmt.Errorf("update members: %w", err)
	}
	return nil
}

// resolveTags creates the tags the rows name and fills their TagIDs.
func (s *Service) resolveTags(ctx context.Context, tx pgx.Tx, accountID int64, rows []contactRow) error {
	var names []string
	for i := range rows {
		names = append(names, rows[i].tags...)
	}
	if len(names) == 0 {
		return nil
	}
	ids, err := ensureTags(ctx, tx, accountID, names)
	if err != nil {
		return err
	}
	for i := range rows {
		for _, n := range rows[i].tags {
			rows[i].TagIDs = append(rows[i].TagIDs, ids[n])
		}
	}
	return nil
}

// ensureTags creates the named tags that do not exist yet and maps every name to its id.
func ensureTags(ctx context.Context, tx pgx.Tx, accountID int64, names []string) (map[string]int64, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO contact_tags (account_id, name) SELECT $1, unnest($2::text[])
		ON CONFLICT (account_id, name) DO NOTHING`, accountID, names); err != nil {
		return nil, fmt.Errorf("create tags: %w", err)
	}
	rows, err := tx.Query(ctx, `SELECT name, id FROM contact_tags WHERE account_id = $1 AND name = ANY($2)`, accountID, names)
	if err != nil {
		return nil, fmt.Errorf("read tags: %w", err)
	}
	out := map[string]int64{}
	var name string
	var id int64
	_, err = pgx.ForEachRow(rows, []any{&name, &id}, func() error { out[name] = id; return nil })
	if err != nil {
		return nil, fmt.Errorf("read tags: %w", err)
	}
	return out, nil
}

// UpdateContact changes a contact; phonebookID, when not 0, moves it to another
// phonebook of the account.
func (s *Service) UpdateContact(ctx context.Context, a Actor, id, phonebookID int64, in ContactInput) (Contact, error) {
	fs, err := s.loadFeatures(ctx, s.pool, a.AccountID)
	if err != nil {
		return Contact{}, err
	}
	r, errs := s.checkContact(in, fs, true)
	if len(errs) > 0 {
		return Contact{}, errs.Err()
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var from int64
		err := tx.QueryRow(ctx, `SELECT phonebook_id FROM contacts WHERE account_id = $1 AND id = $2`, a.AccountID, id).Scan(&from)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("read contact: %w", err)
		}
		to := from
		if phonebookID != 0 && phonebookID != from {
			to = phonebookID
			if err := lockPhonebooks(ctx, tx, a.AccountID, from, to); err != nil {
				return err
			}
		}
		one := []contactRow{r}
		if err := s.resolveTags(ctx, tx, a.AccountID, one); err != nil {
			return err
		}
		r = one[0]
		var tagIDs []int64
		if in.Tags != nil {
			tagIDs = r.TagIDs
			if tagIDs == nil {
				tagIDs = []int64{}
			}
		}
		set, err := json.Marshal(r.Features)
		if err != nil {
			return fmt.Errorf("encode features: %w", err)
		}
		var mobile, name, gender *string
		if in.Number != nil {
			mobile = &r.Mobile
		}
		if in.Name != nil {
			name = &r.Name
		}
		if in.Gender != nil {
			gender = &r.Gender
		}
		dropped := r.dropped
		if dropped == nil {
			dropped = []string{}
		}
		tag, err := tx.Exec(ctx, qUpdateContact, a.AccountID, id, from, to, mobile, name, gender,
			in.BirthDate != nil, r.BirthDate, tagIDs, set, dropped)
		if c, ok := uniqueViolation(err); ok && c == "contacts_phonebook_id_mobile_key" {
			return conflict("number", MsgNumberTaken)
		}
		if err != nil {
			return fmt.Errorf("update contact: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound // moved by someone else meanwhile
		}
		if to != from {
			if err := addMembers(ctx, tx, a.AccountID, []int64{from, to}, []int32{-1, 1}); err != nil {
				return err
			}
		}
		return a.audit(ctx, tx, "contact.update", strconv.FormatInt(id, 10), in.changed(from, to))
	})
	if err != nil {
		return Contact{}, err
	}
	return s.Contact(ctx, a.AccountID, id)
}

// DeleteContacts deletes contacts by id. Any id that is not the account's is a 404
// and nothing is deleted.
func (s *Service) DeleteContacts(ctx context.Context, a Actor, ids []int64) (int, error) {
	ids, err := checkIDs(ids)
	if err != nil {
		return 0, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var books []int64
		rows, err := tx.Query(ctx, `SELECT DISTINCT phonebook_id FROM contacts WHERE account_id = $1 AND id = ANY($2)`,
			a.AccountID, ids)
		if err != nil {
			return fmt.Errorf("read contacts: %w", err)
		}
		if books, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
			return fmt.Errorf("read contacts: %w", err)
		}
		if len(books) == 0 {
			return apperr.ErrNotFound
		}
		if err := lockPhonebooks(ctx, tx, a.AccountID, books...); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `WITH d AS (DELETE FROM contacts WHERE account_id = $1 AND id = ANY($2) RETURNING phonebook_id)
			SELECT phonebook_id, -count(*)::int FROM d GROUP BY 1`, a.AccountID, ids)
		if err != nil {
			return fmt.Errorf("delete contacts: %w", err)
		}
		var book int64
		var n int32
		var deltas []int32
		books, total := books[:0], 0
		_, err = pgx.ForEachRow(rows, []any{&book, &n}, func() error {
			books, deltas, total = append(books, book), append(deltas, n), total-int(n)
			return nil
		})
		if err != nil {
			return fmt.Errorf("delete contacts: %w", err)
		}
		if total != len(ids) {
			return apperr.ErrNotFound
		}
		if err := addMembers(ctx, tx, a.AccountID, books, deltas); err != nil {
			return err
		}
		return a.audit(ctx, tx, "contact.delete", "", map[string]any{"ids": len(ids)})
	})
	if err != nil {
		return 0, err
	}
	return len(ids), nil
}

// ClearPhonebook deletes every contact of a phonebook.
func (s *Service) ClearPhonebook(ctx context.Context, a Actor, phonebookID int64) (int, error) {
	if phonebookID <= 0 {
		return 0, apperr.Field("phonebook_id", MsgPhonebookRequired)
	}
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockPhonebooks(ctx, tx, a.AccountID, phonebookID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM contacts WHERE account_id = $1 AND phonebook_id = $2`, a.AccountID, phonebookID)
		if err != nil {
			return fmt.Errorf("clear phonebook: %w", err)
		}
		n = int(tag.RowsAffected())
		if _, err := tx.Exec(ctx, `UPDATE phonebooks SET members = 0 WHERE account_id = $1 AND id = $2`, a.AccountID, phonebookID); err != nil {
			return fmt.Errorf("clear phonebook: %w", err)
		}
		return a.audit(ctx, tx, "contact.delete", strconv.FormatInt(phonebookID, 10), map[string]any{"all": true, "deleted": n})
	})
	return n, err
}
