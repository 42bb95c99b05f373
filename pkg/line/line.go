// Package line owns sender lines (the numbers messages are sent from): an account's
// advertising and service lines, its default line, and the system line that carries
// one-time codes.
package line

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Kinds of lines. Advertising lines append the cancel-11 footer by default.
const (
	KindAdvertising = "advertising"
	KindService     = "service"
)

// MsgNotFound is shown when a sender line is not the account's.
const MsgNotFound = "خط ارسال انتخاب شده معتبر نیست"

// Line is a sender number.
type Line struct {
	ID        int64  `json:"id"`
	Number    string `json:"number"`
	Kind      string `json:"kind"`
	IsDefault bool   `json:"is_default"`
}

// Service manages lines.
type Service struct{ pool *pgxpool.Pool }

// New returns the line service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// List returns the account's lines, the default first.
func (s *Service) List(ctx context.Context, accountID int64) ([]Line, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, number, kind, is_default FROM lines WHERE account_id = $1
		ORDER BY is_default DESC, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list lines: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Line])
	if err != nil {
		return nil, fmt.Errorf("list lines: %w", err)
	}
	if out == nil {
		out = []Line{}
	}
	return out, nil
}

// SetDefault makes one of the account's lines its default.
func (s *Service) SetDefault(ctx context.Context, accountID, lineID int64) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var number, was string
		err := tx.QueryRow(ctx, `SELECT number, coalesce((SELECT number FROM lines WHERE account_id = $2 AND is_default LIMIT 1), '')
			FROM lines WHERE id = $1 AND account_id = $2`, lineID, accountID).Scan(&number, &was)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.Field("id", MsgNotFound).WithCode("404")
		}
		if err != nil {
			return fmt.Errorf("find line: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE lines SET is_default = false WHERE account_id = $1 AND is_default`, accountID); err != nil {
			return fmt.Errorf("clear default: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE lines SET is_default = true WHERE id = $1`, lineID); err != nil {
			return fmt.Errorf("set default: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: accountID, Action: audit.LineDefault,
			Target: strconv.FormatInt(lineID, 10), Before: map[string]any{"number": was}, After: map[string]any{"number": number}})
	})
}

// Resolve finds the account's line by number (or its default when number is empty).
func (s *Service) Resolve(ctx context.Context, accountID int64, number string) (Line, error) {
	number = strings.TrimSpace(validate.ToLatinDigits(number))
	var l Line
	var err error
	if number == "" {
		err = s.pool.QueryRow(ctx, `SELECT id, number, kind, is_default FROM lines WHERE account_id = $1
			ORDER BY is_default DESC, id LIMIT 1`, accountID).Scan(&l.ID, &l.Number, &l.Kind, &l.IsDefault)
	} else {
		err = s.pool.QueryRow(ctx, `SELECT id, number, kind, is_default FROM lines WHERE account_id = $1 AND number = $2`,
			accountID, number).Scan(&l.ID, &l.Number, &l.Kind, &l.IsDefault)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return Line{}, apperr.Field("sender", MsgNotFound)
	}
	if err != nil {
		return Line{}, fmt.Errorf("resolve line: %w", err)
	}
	return l, nil
}

// ServiceDefault is the line a service send (a pattern: one-time code,
// transactional notice) uses when it names none: the account's service line (its
// default first), else the platform's shared system service line.
func (s *Service) ServiceDefault(ctx context.Context, accountID int64) (Line, error) {
	var l Line
	err := s.pool.QueryRow(ctx, `SELECT id, number, kind, is_default FROM lines WHERE account_id = $1 AND kind = $2
		ORDER BY is_default DESC, id LIMIT 1`, accountID, KindService).Scan(&l.ID, &l.Number, &l.Kind, &l.IsDefault)
	if errors.Is(err, pgx.ErrNoRows) {
		return s.System(ctx)
	}
	if err != nil {
		return Line{}, fmt.Errorf("service line: %w", err)
	}
	return l, nil
}

// ResolveService finds the line a service send names: one of the account's lines
// or the shared system service line; an empty number is ServiceDefault.
func (s *Service) ResolveService(ctx context.Context, accountID int64, number string) (Line, error) {
	number = strings.TrimSpace(validate.ToLatinDigits(number))
	if number == "" {
		return s.ServiceDefault(ctx, accountID)
	}
	sys, err := s.System(ctx)
	if err != nil {
		return Line{}, err
	}
	if sys.Number == number {
		return sys, nil
	}
	return s.Resolve(ctx, accountID, number)
}

// System returns the system service line that carries one-time codes.
func (s *Service) System(ctx context.Context) (Line, error) {
	var l Line
	err := s.pool.QueryRow(ctx, `SELECT id, number, kind, false FROM lines WHERE account_id IS NULL ORDER BY id LIMIT 1`).
		Scan(&l.ID, &l.Number, &l.Kind, &l.IsDefault)
	if err != nil {
		return Line{}, fmt.Errorf("system line: %w", err)
	}
	return l, nil
}

// Add gives an account a line (operator command and demo seed). Adding an existing
// number of the same account changes nothing.
func (s *Service) Add(ctx context.Context, accountID int64, number, kind string, makeDefault bool) (Line, error) {
	l := Line{Number: number, Kind: kind}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO lines (account_id, number, kind) VALUES ($1, $2, $3)
			ON CONFLICT (number) DO UPDATE SET kind = lines.kind WHERE lines.account_id = $1 RETURNING id`,
			accountID, number, kind).Scan(&l.ID)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.New(apperr.Conflict, "این شماره خط متعلق به حساب دیگری است")
		}
		if err != nil {
			return fmt.Errorf("add line: %w", err)
		}
		if makeDefault {
			if _, err := tx.Exec(ctx, `UPDATE lines SET is_default = (id = $2) WHERE account_id = $1`, accountID, l.ID); err != nil {
				return fmt.Errorf("set default: %w", err)
			}
			l.IsDefault = true
		}
		return nil
	})
	return l, err
}
