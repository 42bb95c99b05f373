package phonebook

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Phonebook is a group of contacts.
type Phonebook struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Code      string    `json:"code"`
	Members   int       `json:"members"`
	CreatedAt time.Time `json:"created_at"`
}

// Option is one entry of a select.
type Option struct {
	Label string `json:"label"`
	Value int64  `json:"value"`
}

// AllContactsLabel is the label of the "all contacts" option (value 0).
const AllContactsLabel = "همه مخاطبین"

// PhonebookInput creates or renames a phonebook. Code is optional; a new phonebook
// without one gets a generated code.
type PhonebookInput struct {
	Name string  `json:"name"`
	Code *string `json:"code"`
}

func (in PhonebookInput) check() (name, code string, err error) {
	errs := apperr.Fields{}
	name = normalizeText(in.Name)
	switch {
	case name == "":
		errs.Add("name", validate.MsgRequired)
	case runeLen(name) > maxPhonebookName:
		errs.Add("name", MsgPhonebookNameLong)
	}
	if in.Code != nil {
		code = validate.NormalizeDigits(*in.Code)
		if len(code) > maxCode || strings.IndexFunc(code, notCodeRune) >= 0 {
			errs.Add("code", MsgPhonebookCode)
		}
	}
	return name, code, errs.Err()
}

func notCodeRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
}

// phonebookConflict maps a unique violation of phonebooks to its 409.
func phonebookConflict(err error) error {
	switch c, _ := uniqueViolation(err); c {
	case "phonebooks_account_id_name_key":
		return conflict("name", MsgPhonebookNameTaken)
	case "phonebooks_account_id_code_key":
		return conflict("code", MsgPhonebookCodeTaken)
	}
	return err
}

// CreatePhonebook adds a phonebook to the account.
func (s *Service) CreatePhonebook(ctx context.Context, a Actor, in PhonebookInput) (Phonebook, error) {
	name, code, err := in.check()
	if err != nil {
		return Phonebook{}, err
	}
	generated := code == ""
	var p Phonebook
	// A generated code may collide with one the user typed: try a few.
	for try := 0; ; try++ {
		if generated {
			code = newCode()
		}
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			err := tx.QueryRow(ctx, `INSERT INTO phonebooks (account_id, name, code) VALUES ($1, $2, $3)
				RETURNING `+phonebookCols, a.AccountID, name, code).Scan(phonebookDest(&p)...)
			if err != nil {
				return phonebookConflict(err)
			}
			return a.audit(ctx, tx, "phonebook.create", strconv.FormatInt(p.ID, 10), map[string]any{"name": name})
		})
		if e, ok := apperr.As(err); ok && generated && e.Fields["code"] != nil && try < 5 {
			continue
		}
		return p, err
	}
}

// newCode is a random six-digit phonebook code.
func newCode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(900_000))
	if err != nil {
		panic(err) // crypto/rand does not fail
	}
	return strconv.FormatInt(100_000+n.Int64(), 10)
}

// UpdatePhonebook renames a phonebook (and changes its code when given).
func (s *Service) UpdatePhonebook(ctx context.Context, a Actor, id int64, in PhonebookInput) (Phonebook, error) {
	name, code, err := in.check()
	if err != nil {
		return Phonebook{}, err
	}
	if in.Code != nil && code == "" {
		return Phonebook{}, apperr.Field("code", MsgPhonebookCode)
	}
	var p Phonebook
	var was, wasCode string
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The sub-select sees the row as it was before this statement.
		err := tx.QueryRow(ctx, `UPDATE phonebooks SET name = $3, code = CASE WHEN $4 = '' THEN code ELSE $4 END
			WHERE account_id = $1 AND id = $2 RETURNING `+phonebookCols+`,
			(SELECT o.name FROM phonebooks o WHERE o.id = $2), (SELECT o.code FROM phonebooks o WHERE o.id = $2)`,
			a.AccountID, id, name, code).Scan(append(phonebookDest(&p), &was, &wasCode)...)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return phonebookConflict(err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: a.AccountID, UserID: a.UserID, APIKeyID: a.APIKeyID,
			Action: audit.PhonebookUpdate, Target: strconv.FormatInt(id, 10), IP: a.IP,
			Before: map[string]any{"name": was, "code": wasCode}, After: map[string]any{"name": p.Name, "code": p.Code}})
	})
	return p, err
}

// DeletePhonebooks deletes phonebooks with their contacts. Any id that is not the
// account's is a 404 and nothing is deleted.
func (s *Service) DeletePhonebooks(ctx context.Context, a Actor, ids []int64) (int, error) {
	// A trigger deletes the contacts; contact_imports cascade.
	return s.deleteList(ctx, a, "phonebooks", "phonebook.delete", ids, nil)
}

// Phonebook returns one of the account's phonebooks.
func (s *Service) Phonebook(ctx context.Context, accountID, id int64) (Phonebook, error) {
	var p Phonebook
	err := s.pool.QueryRow(ctx, `SELECT `+phonebookCols+` FROM phonebooks WHERE account_id = $1 AND id = $2`,
		accountID, id).Scan(phonebookDest(&p)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, apperr.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("read phonebook: %w", err)
	}
	return p, nil
}

// Phonebooks lists the account's phonebooks, newest first; search matches the name
// or the code.
func (s *Service) Phonebooks(ctx context.Context, accountID int64, search string, pg Page) ([]Phonebook, int64, error) {
	pattern := db.Contains(normalizeText(search))
	rows, err := s.pool.Query(ctx, `SELECT `+phonebookCols+` FROM phonebooks
		WHERE account_id = $1 AND (name ILIKE $2 OR code ILIKE $2)
		ORDER BY id DESC LIMIT $3 OFFSET $4`, accountID, pattern, pg.Limit, pg.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list phonebooks: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanPhonebook)
	if err != nil {
		return nil, 0, fmt.Errorf("list phonebooks: %w", err)
	}
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM phonebooks WHERE account_id = $1 AND (name ILIKE $2 OR code ILIKE $2)`,
		accountID, pattern).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count phonebooks: %w", err)
	}
	return out, total, nil
}

// Options lists the account's phonebooks for a select, by name.
func (s *Service) Options(ctx context.Context, accountID int64, search string) ([]Option, error) {
	rows, err := s.pool.Query(ctx, `SELECT name, id FROM phonebooks WHERE account_id = $1 AND name ILIKE $2
		ORDER BY name, id LIMIT $3`, accountID, db.Contains(normalizeText(search)), MaxOptions)
	if err != nil {
		return nil, fmt.Errorf("phonebook options: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Option])
	if err != nil {
		return nil, fmt.Errorf("phonebook options: %w", err)
	}
	return out, nil
}

// NumbersCount is the size of a set of phonebooks: its rows, its unique numbers, and
// how many of those are on the send blacklist or the cancel-11 list.
type NumbersCount struct {
	Count       int64 `json:"count"`
	Unique      int64 `json:"unique"`
	Blacklisted int64 `json:"blacklisted"`
}

// Count sizes the given phonebooks; no ids, or the id 0, means every phonebook of the
// account. An id that is not the account's is a 404.
func (s *Service) Count(ctx context.Context, accountID int64, ids []int64) (NumbersCount, error) {
	all := len(ids) == 0
	var want []int64
	for _, id := range ids {
		if id == 0 {
			all = true
		} else {
			want = append(want, id)
		}
	}
	var c NumbersCount
	var found int
	err := s.pool.QueryRow(ctx, `SELECT count(*), coalesce(sum(members), 0) FROM phonebooks
		WHERE account_id = $1 AND id = ANY($2)`, accountID, want).Scan(&found, &c.Count)
	if err != nil {
		return c, fmt.Errorf("count phonebooks: %w", err)
	}
	if found != len(want) {
		return c, apperr.ErrNotFound
	}
	q, args := qCountSome, []any{accountID, want}
	if all {
		q, args = qCountAll, []any{accountID}
	}
	if err := s.pool.QueryRow(ctx, q, args...).Scan(&c.Count, &c.Unique, &c.Blacklisted); err != nil {
		return c, fmt.Errorf("count numbers: %w", err)
	}
	return c, nil
}

const phonebookCols = `id, name, code, members, created_at`

func phonebookDest(p *Phonebook) []any {
	return []any{&p.ID, &p.Name, &p.Code, &p.Members, &p.CreatedAt}
}

func scanPhonebook(row pgx.CollectableRow) (Phonebook, error) {
	var p Phonebook
	err := row.Scan(phonebookDest(&p)...)
	return p, err
}
