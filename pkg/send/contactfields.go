package send

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/persian"
)

// MsgUnknownTag refuses a phonebook send whose text names a tag the contacts do not
// have (%s: the tag as written, then the tags that exist).
const MsgUnknownTag = "برچسب «%s» در دفترچه تلفن تعریف نشده است؛ برچسب‌های قابل استفاده: %s"

// ContactTag is a tag of a phonebook send's text and the contact field it takes
// (phonebook sends personalise like keyword sends: the same template renders each
// contact's row, docs/api-sending.md «Personalised phonebook sends»).
type ContactTag struct {
	// Name is the tag as written between braces: {name}.
	Name string `json:"name"`
	// Field is name, title, mobile, birth_date or feature:<id>.
	Field string `json:"field"`
	// Date marks a date field, written in Jalali.
	Date bool `json:"date,omitempty"`
}

// contactTagRE finds a phonebook text's tags: {name}, {title}, {تاریخ_تولد}, a
// custom feature's Latin or Persian title.
var contactTagRE = regexp.MustCompile(`\{([^{}\n]{1,40})\}`)

// fixedContactTags are the fields every contact has, with their Persian names.
var fixedContactTags = []struct{ latin, persian, field string }{
	{"name", "نام", "name"},
	{"title", "عنوان", "title"},
	{"mobile", "موبایل", "mobile"},
	{"birth_date", "تاریخ_تولد", "birth_date"},
}

// contactFieldSQL is each fixed field as read from contacts c; title is the
// salutation by gender.
var contactFieldSQL = map[string]string{
	"name":       "c.name",
	"title":      "CASE c.gender WHEN 'male' THEN 'آقای' WHEN 'female' THEN 'خانم' ELSE '' END",
	"mobile":     "'0' || substr(c.mobile, 3)",
	"birth_date": "coalesce(c.birth_date::text, '')",
}

// contactTags resolves the tags of a phonebook send's text against the account's
// contact fields and enabled custom features; unknown is the first tag that names
// none (with the list of those that exist), "" when all resolve.
func contactTags(ctx context.Context, q operator.Querier, accountID int64, text string) (tags []ContactTag, unknown string, err error) {
	found := contactTagRE.FindAllStringSubmatch(text, -1)
	if len(found) == 0 {
		return nil, "", nil
	}
	known := map[string]ContactTag{}
	var names []string
	for _, f := range fixedContactTags {
		t := ContactTag{Field: f.field, Date: f.field == "birth_date"}
		known[f.latin], known[f.persian] = t, t
		names = append(names, "{"+f.latin+"}")
	}
	rows, err := q.Query(ctx, `SELECT id, title_en, title_fa, type FROM contact_features WHERE account_id = $1 AND enabled ORDER BY id`, accountID)
	if err != nil {
		return nil, "", fmt.Errorf("contact features: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var en, fa, typ string
		if err := rows.Scan(&id, &en, &fa, &typ); err != nil {
			return nil, "", fmt.Errorf("contact feature: %w", err)
		}
		t := ContactTag{Field: "feature:" + strconv.FormatInt(id, 10), Date: typ == "date"}
		known[strings.ToLower(en)], known[fa] = t, t
		names = append(names, "{"+en+"}")
	}
	if err := rows.Err(); err != nil {
		return nil, "", fmt.Errorf("contact features: %w", err)
	}
	seen := map[string]bool{}
	for _, m := range found {
		name := strings.TrimSpace(m[1])
		t, ok := known[name]
		if !ok {
			t, ok = known[strings.ToLower(name)]
		}
		if !ok {
			return nil, fmt.Sprintf(MsgUnknownTag, m[0], strings.Join(names, "، ")), nil
		}
		if !seen[m[1]] {
			seen[m[1]] = true
			t.Name = m[1]
			tags = append(tags, t)
		}
	}
	return tags, "", nil
}

// contactTemplate is a phonebook text as a template over the cells contactCells
// reads: the tag at i takes cell i.
func contactTemplate(text string, tags []ContactTag) template {
	index := make(map[string]int, len(tags))
	for i, t := range tags {
		index[t.Name] = i
	}
	return parseTags(text, contactTagRE, func(name string) int {
		if i, ok := index[name]; ok {
			return i
		}
		return -1 // unknown since accept: renders empty
	})
}

// contactCellsSQL is the cells array of a contact for tags; feature values come
// from the parameter $n (a text[] of feature ids).
func contactCellsSQL(tags []ContactTag, n int) (sql string, featureIDs []string) {
	exprs := make([]string, len(tags))
	for i, t := range tags {
		if id, ok := strings.CutPrefix(t.Field, "feature:"); ok {
			featureIDs = append(featureIDs, id)
			exprs[i] = fmt.Sprintf("coalesce(c.features->>(($%d::text[])[%d]), '')", n, len(featureIDs))
			continue
		}
		exprs[i] = contactFieldSQL[t.Field]
	}
	return "ARRAY[" + strings.Join(exprs, ", ") + "]::text[]", featureIDs
}

// jalaliCells rewrites the date cells of a contact's row in Jalali.
func jalaliCells(tags []ContactTag) func([]string) {
	return func(cells []string) {
		for i, t := range tags {
			if t.Date && i < len(cells) {
				if j, ok := persian.JalaliDate(cells[i]); ok {
					cells[i] = j
				}
			}
		}
	}
}

// checkContactTags resolves the tags of a phonebook send's text into p.src.Tags;
// an unknown tag is a field error on text, before anything is priced or stored.
func (s *Service) checkContactTags(ctx context.Context, accountID int64, text string, p *prepared, fields apperr.Fields) error {
	if p.typ != TypePhonebook {
		return nil
	}
	tags, unknown, err := contactTags(ctx, s.pool, accountID, text)
	if err != nil {
		return err
	}
	if unknown != "" {
		fields.Add("text", unknown)
	}
	p.src.Tags = tags
	return nil
}
