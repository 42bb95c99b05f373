package phonebook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// Filter selects contacts (the contact list and its export).
type Filter struct {
	PhonebookID int64
	// Search matches the name (contains) or, when it is written as the start of a
	// number (0912…, 912…, 98912…, +98912…, 0098912…, in Latin or Persian digits),
	// the numbers that start so. Names are found through contact_search, which may
	// lag an import (see Indexing).
	Search string
	// Gender is male, female or none (unknown); empty is any.
	Gender string
	// Tag is a tag id or name.
	Tag                    string
	BirthFrom, BirthTo     string // YYYY-MM-DD, inclusive
	CreatedFrom, CreatedTo time.Time
	// Features holds feature.<latin title>=value filters: equal for integer and date
	// features (an index serves them), contains for text.
	Features map[string]string
	Page     Page
}

// ParseFilter reads the contact-list query string.
func ParseFilter(q url.Values) (Filter, error) {
	f := Filter{Features: map[string]string{}}
	errs := apperr.Fields{}
	var err error
	if f.PhonebookID, err = ParseID("phonebook_id", q.Get("phonebook_id")); err != nil {
		errs.Add("phonebook_id", MsgID)
	}
	f.Search = strings.TrimSpace(q.Get("search"))
	switch g := strings.TrimSpace(q.Get("gender")); g {
	case "", GenderMale, GenderFemale, "none":
		f.Gender = g
	default:
		errs.Add("gender", MsgGender)
	}
	f.Tag = normalizeText(q.Get("tag"))
	for _, b := range []struct {
		field string
		dst   *string
	}{{"birth_from", &f.BirthFrom}, {"birth_to", &f.BirthTo}} {
		if v := validate.NormalizeDigits(q.Get(b.field)); v != "" {
			if d, ok := parseAPIDate(v); ok {
				*b.dst = formatDate(d)
			} else {
				errs.Add(b.field, MsgDate)
			}
		}
	}
	var ok bool
	if f.CreatedFrom, ok = parseDayBound(q.Get("created_from"), false); !ok {
		errs.Add("created_from", MsgDate)
	}
	if f.CreatedTo, ok = parseDayBound(q.Get("created_to"), true); !ok {
		errs.Add("created_to", MsgDate)
	}
	if !f.CreatedFrom.IsZero() && !f.CreatedTo.IsZero() && !f.CreatedFrom.Before(f.CreatedTo) {
		errs.Add("created_to", MsgDateRange)
	}
	for k, v := range q {
		if title, ok := strings.CutPrefix(k, "feature."); ok && len(v) > 0 && strings.TrimSpace(v[0]) != "" {
			f.Features[title] = v[0]
		}
	}
	if f.Page, err = ParsePage(q); err != nil {
		e, _ := apperr.As(err)
		for k, v := range e.Fields {
			errs[k] = v
		}
	}
	return f, errs.Err()
}

// where is a contact query's WHERE clause and its arguments; $1 is the account.
type where struct {
	conds []string
	args  []any
	// narrowed is set by any condition beyond the account and the phonebook, which
	// makes the total a capped count instead of the member counters.
	narrowed bool
	// name is the pattern of a name search, and filtered is set by any other
	// narrowing condition: a name search alone is counted in contact_search.
	name     string
	filtered bool
	// none is set when a condition can match nothing (an unknown tag name).
	none bool
}

func (w *where) add(cond string, args ...any) {
	for _, a := range args {
		w.args = append(w.args, a)
		cond = strings.Replace(cond, "?", "$"+strconv.Itoa(len(w.args)), 1)
	}
	w.conds = append(w.conds, cond)
}

func (w *where) sql() string { return strings.Join(w.conds, " AND ") }

// build turns a filter into the WHERE clause of the account's contacts; the
// phonebook, a tag given by id and the features must be the account's.
func (s *Service) build(ctx context.Context, accountID int64, f Filter, fs featureSet) (*where, error) {
	w := &where{}
	w.add("c.account_id = ?", accountID)
	if f.PhonebookID != 0 {
		if _, err := s.Phonebook(ctx, accountID, f.PhonebookID); err != nil {
			return nil, err
		}
		w.add("c.phonebook_id = ?", f.PhonebookID)
	}
	narrow := func(cond string, args ...any) {
		w.narrowed, w.filtered = true, true
		w.add(cond, args...)
	}
	if term := normalizeText(f.Search); term != "" {
		w.search(term)
	}
	switch f.Gender {
	case "none":
		narrow("c.gender = ''")
	case GenderMale, GenderFemale:
		narrow("c.gender = ?", f.Gender)
	}
	if f.Tag != "" {
		id, err := s.tagID(ctx, accountID, f.Tag)
		if err != nil {
			return nil, err
		}
		w.none = w.none || id == 0
		narrow("c.tag_ids @> ARRAY[?::bigint]", id)
	}
	if f.BirthFrom != "" {
		narrow("c.birth_date >= ?::date", f.BirthFrom)
	}
	if f.BirthTo != "" {
		narrow("c.birth_date <= ?::date", f.BirthTo)
	}
	if !f.CreatedFrom.IsZero() {
		narrow("c.created_at >= ?", f.CreatedFrom)
	}
	if !f.CreatedTo.IsZero() {
		narrow("c.created_at < ?", f.CreatedTo)
	}
	errs := apperr.Fields{}
	for title, v := range f.Features {
		field := fs.field("feature", title)
		feat := fs.byTitle[strings.ToLower(strings.TrimSpace(title))]
		if feat == nil {
			errs.Add(field, MsgFeatureUnknown)
			continue
		}
		val, msg := feat.value(v, false)
		switch {
		case msg != "":
			errs.Add(field, msg)
		case feat.Type == TypeText:
			narrow("c.features->>? ILIKE ?", feat.key(), db.Contains(val.(string)))
		default:
			b, _ := json.Marshal(map[string]any{feat.key(): val}) // an int64 or a date string
			narrow("c.features @> ?::jsonb", string(b))
		}
	}
	return w, errs.Err()
}

// tagID resolves a tag filter (an id or a name) to one of the account's tag ids; 0
// when there is no such tag.
func (s *Service) tagID(ctx context.Context, accountID int64, tag string) (int64, error) {
	id, _ := strconv.ParseInt(validate.ToLatinDigits(tag), 10, 64)
	var out int64
	err := s.pool.QueryRow(ctx, `SELECT id FROM contact_tags WHERE account_id = $1 AND (id = $2 OR name = $3)
		ORDER BY id = $2 DESC LIMIT 1`, accountID, id, tag).Scan(&out)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read tag: %w", err)
	}
	return out, nil
}

// search adds the condition of a search term: a range of numbers when the term is
// the start of one (contacts_mobile_idx), else a name that contains it, found in
// contact_search (its trigram index). The triggers of migration 0190 keep
// contact_search exact in the writer's transaction, so a contact found there has
// that name; only an import's contacts may be missing from it for a while.
func (w *where) search(term string) {
	w.narrowed = true
	prefix, ok := numberPrefix(term)
	switch upper := nextPrefix(prefix); {
	case ok && upper != "":
		w.filtered = true
		w.add("c.mobile >= ? AND c.mobile < ?", prefix, upper)
	case ok:
		w.filtered = true
		w.add("c.mobile >= ?", prefix)
	default:
		w.name = db.Contains(term)
		w.add(`c.id IN (SELECT s.contact_id FROM contact_search s WHERE s.account_id = $1 AND s.name ILIKE ?)`, w.name)
	}
}

// numberPrefix reads a search term as the start of a number and returns it in the
// stored form (98…): 0912…, 912…, 98912…, +98912… and 0098912… all give 98912…, in
// Latin, Persian or Arabic digits, with spaces or dashes anywhere. ok is false for
// any other term (a name, or digits no number starts with), which is searched in
// names.
func numberPrefix(term string) (prefix string, ok bool) {
	d, plus, ok := termDigits(term)
	switch {
	case !ok:
		return "", false
	case strings.HasPrefix(d, "98"):
		return d, true
	case plus:
		return "", false // another country's code: no stored number has it
	case strings.HasPrefix(d, "0098"):
		return d[2:], true
	case strings.HasPrefix(d, "0") && !strings.HasPrefix(d, "00"):
		return "98" + d[1:], true
	case strings.HasPrefix(d, "9"):
		return "98" + d, true
	}
	return "", false
}

// nextPrefix is the smallest digit string after every string that starts with
// prefix ("98912" → "98913", "989" → "99"), or "" when there is none ("99"). A
// number starts with prefix when it is at least prefix and below nextPrefix, in
// any collation, as both are digits.
func nextPrefix(prefix string) string {
	p := strings.TrimRight(prefix, "9")
	if p == "" {
		return ""
	}
	return p[:len(p)-1] + string(p[len(p)-1]+1)
}

// custom makes pgx plan a query with its actual arguments every time: the contact
// queries' best plan depends on how common the searched text is, which a cached
// generic plan cannot know.
func custom(args []any) []any { return append([]any{pgx.QueryExecModeExec}, args...) }

// Contacts lists the account's contacts, newest first. The total is exact for a
// phonebook or all contacts (the member counters) and capped at CountCap for any
// narrower filter.
func (s *Service) Contacts(ctx context.Context, accountID int64, f Filter) ([]Contact, int64, error) {
	fs, err := s.loadFeatures(ctx, s.pool, accountID)
	if err != nil {
		return nil, 0, err
	}
	w, err := s.build(ctx, accountID, f, fs)
	if err != nil {
		return nil, 0, err
	}
	if w.none {
		return []Contact{}, 0, nil
	}
	n := len(w.args)
	out, err := s.readContacts(ctx, accountID, fs, qContactCols+` WHERE `+w.sql()+
		fmt.Sprintf(` ORDER BY c.id DESC LIMIT $%d OFFSET $%d`, n+1, n+2), custom(append(w.args, f.Page.Limit, f.Page.Offset()))...)
	if err != nil {
		return nil, 0, err
	}
	var total int64
	switch {
	case w.narrowed && len(out) < f.Page.Limit && (len(out) > 0 || f.Page.Page == 1):
		total = int64(f.Page.Offset() + len(out)) // the last page: no need to count
	case w.name != "" && !w.filtered: // a name alone: no contact row to read
		err = s.pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM (SELECT 1 FROM contact_search s WHERE s.account_id = $1
			AND ($2 = 0 OR s.phonebook_id = $2) AND s.name ILIKE $3 LIMIT %d) x`, CountCap),
			custom([]any{accountID, f.PhonebookID, w.name})...).Scan(&total)
	case w.narrowed:
		err = s.pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM (SELECT 1 FROM contacts c WHERE %s LIMIT %d) x`,
			w.sql(), CountCap), custom(w.args)...).Scan(&total)
	case f.PhonebookID != 0:
		err = s.pool.QueryRow(ctx, `SELECT members FROM phonebooks WHERE account_id = $1 AND id = $2`,
			accountID, f.PhonebookID).Scan(&total)
	default:
		err = s.pool.QueryRow(ctx, `SELECT coalesce(sum(members), 0) FROM phonebooks WHERE account_id = $1`,
			accountID).Scan(&total)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("count contacts: %w", err)
	}
	return out, total, nil
}

// Contact returns one of the account's contacts.
func (s *Service) Contact(ctx context.Context, accountID, id int64) (Contact, error) {
	fs, err := s.loadFeatures(ctx, s.pool, accountID)
	if err != nil {
		return Contact{}, err
	}
	out, err := s.readContacts(ctx, accountID, fs, qContactCols+` WHERE c.account_id = $1 AND c.id = $2`, accountID, id)
	if err != nil {
		return Contact{}, err
	}
	if len(out) == 0 {
		return Contact{}, apperr.ErrNotFound
	}
	return out[0], nil
}

// readContacts runs a contact query and fills in tag names, feature titles and the
// lists each number is on.
func (s *Service) readContacts(ctx context.Context, accountID int64, fs featureSet, sql string, args ...any) ([]Contact, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("read contacts: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanContact)
	if err != nil {
		return nil, fmt.Errorf("read contacts: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	if err := s.decorate(ctx, accountID, fs, out); err != nil {
		return nil, err
	}
	return out, nil
}

// decorate fills tags, features and list marks of a page of contacts.
func (s *Service) decorate(ctx context.Context, accountID int64, fs featureSet, cs []Contact) error {
	var tagIDs []int64
	mobiles := make([]string, len(cs))
	for i := range cs {
		tagIDs = append(tagIDs, cs[i].tagIDs...)
		mobiles[i] = cs[i].Number
	}
	names := map[int64]string{}
	if len(tagIDs) > 0 {
		rows, err := s.pool.Query(ctx, `SELECT id, name FROM contact_tags WHERE account_id = $1 AND id = ANY($2)`,
			accountID, uniqueIDs(tagIDs))
		if err != nil {
			return fmt.Errorf("read tags: %w", err)
		}
		var id int64
		var name string
		if _, err := pgx.ForEachRow(rows, []any{&id, &name}, func() error { names[id] = name; return nil }); err != nil {
			return fmt.Errorf("read tags: %w", err)
		}
	}
	marks, err := s.listMarks(ctx, accountID, mobiles)
	if err != nil {
		return err
	}
	for i := range cs {
		c := &cs[i]
		c.Tags = []string{}
		for _, id := range c.tagIDs {
			if n, ok := names[id]; ok {
				c.Tags = append(c.Tags, n)
			}
		}
		c.Features = fs.featureOut(c.features)
		c.Blacklists = marks[c.Number]
		if c.Blacklists == nil {
			c.Blacklists = []ListMark{}
		}
	}
	return nil
}

// listMarks says which lists each number is on.
func (s *Service) listMarks(ctx context.Context, accountID int64, mobiles []string) (map[string][]ListMark, error) {
	rows, err := s.pool.Query(ctx, `SELECT mobile, kind, created_at FROM blacklist WHERE account_id = $1 AND mobile = ANY($2)
		ORDER BY mobile, created_at`, accountID, mobiles)
	if err != nil {
		return nil, fmt.Errorf("read lists: %w", err)
	}
	out := map[string][]ListMark{}
	var mobile string
	var m ListMark
	_, err = pgx.ForEachRow(rows, []any{&mobile, &m.Kind, &m.CreatedAt}, func() error {
		out[mobile] = append(out[mobile], m)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read lists: %w", err)
	}
	return out, nil
}

func scanContact(row pgx.CollectableRow) (Contact, error) {
	var c Contact
	var birth *time.Time
	err := row.Scan(&c.ID, &c.PhonebookID, &c.PhonebookName, &c.Number, &c.Name, &c.Gender, &birth,
		&c.tagIDs, &c.features, &c.CreatedAt)
	if birth != nil {
		d := formatDate(*birth)
		c.BirthDate = &d
	}
	return c, err
}

// Number is a bare number of a phonebook.
type Number struct {
	ID     int64  `json:"id"`
	Number string `json:"number"`
}

// Numbers lists the bare numbers of a phonebook (0: of every phonebook), newest first.
func (s *Service) Numbers(ctx context.Context, accountID, phonebookID int64, pg Page) ([]Number, int64, error) {
	f := Filter{PhonebookID: phonebookID, Page: pg}
	w, err := s.build(ctx, accountID, f, featureSet{})
	if err != nil {
		return nil, 0, err
	}
	n := len(w.args)
	rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT c.id, c.mobile FROM contacts c WHERE %s ORDER BY c.id DESC LIMIT $%d OFFSET $%d`,
		w.sql(), n+1, n+2), append(w.args, pg.Limit, pg.Offset())...)
	if err != nil {
		return nil, 0, fmt.Errorf("list numbers: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Number])
	if err != nil {
		return nil, 0, fmt.Errorf("list numbers: %w", err)
	}
	var total int64
	q, args := `SELECT coalesce(sum(members), 0) FROM phonebooks WHERE account_id = $1`, []any{accountID}
	if phonebookID != 0 {
		q, args = q+` AND id = $2`, append(args, phonebookID)
	}
	if err := s.pool.QueryRow(ctx, q, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count numbers: %w", err)
	}
	return out, total, nil
}
