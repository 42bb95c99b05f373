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

// Feature types and flows.
const (
	TypeText    = "text"
	TypeDate    = "date"
	TypeInteger = "integer"

	FlowSend     = "send"
	FlowImport   = "import"
	FlowContacts = "contacts"
)

// Flows lists the flows a feature may serve, in their canonical order.
var Flows = []string{FlowSend, FlowImport, FlowContacts}

// Feature is a custom property of the account's contacts («ویژگی سفارشی»).
type Feature struct {
	ID        int64     `json:"id"`
	TitleFa   string    `json:"title_fa"`
	TitleEn   string    `json:"title_en"`
	Type      string    `json:"type"`
	Enabled   bool      `json:"enabled"`
	Flows     []string  `json:"flows"`
	CreatedAt time.Time `json:"created_at"`
}

// key is the feature's key in contacts.features.
func (f *Feature) key() string { return strconv.FormatInt(f.ID, 10) }

// FeatureInput creates a feature (ID 0) or updates one. Enabled defaults to true and
// Flows to every flow.
type FeatureInput struct {
	ID      int64     `json:"id"`
	TitleFa string    `json:"title_fa"`
	TitleEn string    `json:"title_en"`
	Type    string    `json:"type"`
	Enabled *bool     `json:"enabled"`
	Flows   *[]string `json:"flows"`
}

func (in *FeatureInput) check() error {
	errs := apperr.Fields{}
	in.TitleFa = normalizeText(in.TitleFa)
	if in.TitleFa == "" || runeLen(in.TitleFa) > maxFeatureTitle {
		errs.Add("title_fa", MsgFeatureTitleFa)
	}
	in.TitleEn = strings.TrimSpace(in.TitleEn)
	if validate.FeatureName(in.TitleEn) != nil || len(in.TitleEn) > maxFeatureTitle {
		errs.Add("title_en", MsgFeatureTitleEn)
	}
	if in.Type != TypeText && in.Type != TypeDate && in.Type != TypeInteger {
		errs.Add("type", MsgFeatureType)
	}
	if in.Flows == nil {
		in.Flows = &Flows
	} else {
		for _, f := range *in.Flows {
			if !slices.Contains(Flows, f) {
				errs.Add("flows", MsgFeatureFlows)
				break
			}
		}
	}
	return errs.Err()
}

// canonicalFlows is the flows in their canonical order, without repeats.
func canonicalFlows(in []string) []string {
	out := []string{}
	for _, f := range Flows {
		if slices.Contains(in, f) {
			out = append(out, f)
		}
	}
	return out
}

// SaveFeature creates a feature (201) or updates one (created false). The type of a
// feature cannot change once a contact holds a value for it.
func (s *Service) SaveFeature(ctx context.Context, a Actor, in FeatureInput) (f Feature, created bool, err error) {
	if err := in.check(); err != nil {
		return f, false, err
	}
	enabled := in.Enabled == nil || *in.Enabled
	flows := canonicalFlows(*in.Flows)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if in.ID == 0 {
			created = true
			err := tx.QueryRow(ctx, `INSERT INTO contact_features (account_id, title_fa, title_en, type, enabled, flows)
				VALUES ($1, $2, $3, $4, $5, $6) RETURNING `+featureCols,
				a.AccountID, in.TitleFa, in.TitleEn, in.Type, enabled, flows).Scan(featureDest(&f)...)
			if err != nil {
				return featureConflict(err)
			}
			return a.audit(ctx, tx, "contact_feature.create", strconv.FormatInt(f.ID, 10), map[string]any{"title_en": in.TitleEn})
		}
		var old string
		err := tx.QueryRow(ctx, `SELECT type FROM contact_features WHERE account_id = $1 AND id = $2 FOR UPDATE`,
			a.AccountID, in.ID).Scan(&old)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("read feature: %w", err)
		}
		if old != in.Type {
			var used bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM contacts WHERE account_id = $1 AND features ? $2)`,
				a.AccountID, strconv.FormatInt(in.ID, 10)).Scan(&used); err != nil {
				return fmt.Errorf("feature in use: %w", err)
			}
			if used {
				return apperr.Field("type", MsgFeatureTypeLocked)
			}
		}
		err = tx.QueryRow(ctx, `UPDATE contact_features SET title_fa = $3, title_en = $4, type = $5, enabled = $6, flows = $7
			WHERE account_id = $1 AND id = $2 RETURNING `+featureCols,
			a.AccountID, in.ID, in.TitleFa, in.TitleEn, in.Type, enabled, flows).Scan(featureDest(&f)...)
		if err != nil {
			return featureConflict(err)
		}
		return a.audit(ctx, tx, "contact_feature.update", strconv.FormatInt(f.ID, 10), map[string]any{"title_en": in.TitleEn})
	})
	return f, created, err
}

func featureConflict(err error) error {
	if c, ok := uniqueViolation(err); ok && c == "contact_features_title_en_key" {
		return conflict("title_en", MsgFeatureTitleTaken)
	}
	return fmt.Errorf("save feature: %w", err)
}

// Features lists the account's features in the order they were made.
func (s *Service) Features(ctx context.Context, accountID int64, pg Page) ([]Feature, int64, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+featureCols+` FROM contact_features WHERE account_id = $1
		ORDER BY id LIMIT $2 OFFSET $3`, accountID, pg.Limit, pg.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list features: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanFeature)
	if err != nil {
		return nil, 0, fmt.Errorf("list features: %w", err)
	}
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM contact_features WHERE account_id = $1`, accountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count features: %w", err)
	}
	return out, total, nil
}

// DeleteFeatures deletes features and every contact's values of them. Any id that is
// not the account's is a 404 and nothing is deleted.
func (s *Service) DeleteFeatures(ctx context.Context, a Actor, ids []int64) (int, error) {
	return s.deleteList(ctx, a, "contact_features", "contact_feature.delete", ids, func(tx pgx.Tx, ids []int64) error {
		keys := make([]string, len(ids))
		for i, id := range ids {
			keys[i] = strconv.FormatInt(id, 10)
		}
		if _, err := tx.Exec(ctx, `UPDATE contacts SET features = features - $2::text[]
			WHERE account_id = $1 AND features ?| $2::text[]`, a.AccountID, keys); err != nil {
			return fmt.Errorf("drop feature values: %w", err)
		}
		return nil
	})
}

const featureCols = `id, title_fa, title_en, type, enabled, flows, created_at`

func featureDest(f *Feature) []any {
	return []any{&f.ID, &f.TitleFa, &f.TitleEn, &f.Type, &f.Enabled, &f.Flows, &f.CreatedAt}
}

func scanFeature(row pgx.CollectableRow) (Feature, error) {
	var f Feature
	err := row.Scan(featureDest(&f)...)
	return f, err
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// featureSet is an account's features by id and by Latin title (lower case).
type featureSet struct {
	byKey   map[string]*Feature
	byTitle map[string]*Feature
}

func (s *Service) loadFeatures(ctx context.Context, q querier, accountID int64) (featureSet, error) {
	rows, err := q.Query(ctx, `SELECT `+featureCols+` FROM contact_features WHERE account_id = $1`, accountID)
	if err != nil {
		return featureSet{}, fmt.Errorf("read features: %w", err)
	}
	list, err := pgx.CollectRows(rows, scanFeature)
	if err != nil {
		return featureSet{}, fmt.Errorf("read features: %w", err)
	}
	fs := featureSet{byKey: map[string]*Feature{}, byTitle: map[string]*Feature{}}
	for i := range list {
		f := &list[i]
		fs.byKey[f.key()] = f
		fs.byTitle[strings.ToLower(f.TitleEn)] = f
	}
	return fs, nil
}

// field names the error field of a feature title sent by the client: prefix.title for
// a stored feature (its Latin title in the client's spelling), just prefix for an
// unknown title, so that the answer never echoes arbitrary input.
func (fs featureSet) field(prefix, title string) string {
	title = strings.TrimSpace(title)
	if fs.byTitle[strings.ToLower(title)] != nil {
		return prefix + "." + title
	}
	return prefix
}

// usable finds an enabled feature by its Latin title; msg is the error otherwise.
func (fs featureSet) usable(title string) (f *Feature, msg string) {
	f = fs.byTitle[strings.ToLower(strings.TrimSpace(title))]
	switch {
	case f == nil:
		return nil, MsgFeatureUnknown
	case !f.Enabled:
		return nil, MsgFeatureDisabled
	}
	return f, ""
}

// apiValue checks a value sent to the API: a JSON string, or a number for integer
// and text features. A nil result (null or blank) means no value.
func (f *Feature) apiValue(raw json.RawMessage) (any, string) {
	var v any
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, f.typeMessage()
	}
	switch x := v.(type) {
	case nil:
		return nil, ""
	case string:
		return f.value(x, false)
	case json.Number:
		if f.Type == TypeDate {
			return nil, MsgFeatureDate
		}
		return f.value(x.String(), false)
	}
	return nil, f.typeMessage()
}

// value checks a value given as text; lenient (import files) also takes Jalali and
// Excel dates and integers written as "12.0".
func (f *Feature) value(s string, lenient bool) (any, string) {
	s = normalizeText(s)
	if s == "" {
		return nil, ""
	}
	switch f.Type {
	case TypeInteger:
		n, ok := parseInteger(s, lenient)
		if !ok {
			return nil, MsgFeatureInteger
		}
		return n, ""
	case TypeDate:
		parse := parseAPIDate
		if lenient {
			parse = parseFileDate
		}
		d, ok := parse(s)
		if !ok {
			return nil, MsgFeatureDate
		}
		return formatDate(d), ""
	}
	if runeLen(s) > maxFeatureText {
		return nil, MsgFeatureText
	}
	return s, ""
}

func (f *Feature) typeMessage() string {
	switch f.Type {
	case TypeInteger:
		return MsgFeatureInteger
	case TypeDate:
		return MsgFeatureDate
	}
	return MsgFeatureText
}

// thousands drops thousands separators (Latin, Persian, Arabic comma).
var thousands = strings.NewReplacer(",", "", "٬", "", "،", "")

// parseInteger reads an integer: digits (Persian and Arabic too) with an optional
// sign and thousands separators; lenient also takes a zero fraction ("12.0").
func parseInteger(s string, lenient bool) (int64, bool) {
	s = thousands.Replace(validate.ToLatinDigits(s))
	if lenient {
		if whole, frac, ok := strings.Cut(s, "."); ok && strings.Trim(frac, "0") == "" {
			s = whole
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || strings.HasPrefix(s, "+") {
		return 0, false
	}
	return n, true
}

// featureOut turns stored feature values (keyed by id) into the API's map keyed by
// Latin title; values of deleted features are left out.
func (fs featureSet) featureOut(raw []byte) map[string]any {
	out := map[string]any{}
	if len(raw) == 0 {
		return out
	}
	var stored map[string]any
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if err := d.Decode(&stored); err != nil {
		return out
	}
	for k, v := range stored {
		if f := fs.byKey[k]; f != nil {
			out[f.TitleEn] = v
		}
	}
	return out
}
