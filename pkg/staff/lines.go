package staff

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of lines and tariffs.
const (
	MsgLineNumber = "شماره خط باید ۴ تا ۱۸ رقم باشد"
	MsgLineKind   = "نوع خط معتبر نیست"
	MsgOperator   = "اپراتور معتبر نیست"
	MsgTariff     = "قیمت‌ها باید اعداد صحیح نامنفی باشند"
)

var lineRE = regexp.MustCompile(`^[0-9]{4,18}$`)

// LineInput assigns a sender line to an account.
type LineInput struct {
	Number  string `json:"number"`
	Kind    string `json:"kind"`
	Default bool   `json:"default"`
}

// AssignLine gives an account a sender line (a number another account holds is
// refused), audited with the staff member.
func (s *Service) AssignLine(ctx context.Context, by acl.Identity, accountID int64, in LineInput, ip string) (line.Line, error) {
	in.Number = strings.TrimSpace(validate.ToLatinDigits(in.Number))
	fields := apperr.Fields{}
	if !lineRE.MatchString(in.Number) {
		fields.Add("number", MsgLineNumber)
	}
	if in.Kind != line.KindAdvertising && in.Kind != line.KindService {
		fields.Add("kind", MsgLineKind)
	}
	if err := fields.Err(); err != nil {
		return line.Line{}, err
	}
	if _, err := s.Account(ctx, accountID); err != nil {
		return line.Line{}, err
	}
	l, err := line.New(s.pool).Add(ctx, accountID, in.Number, in.Kind, in.Default)
	if err != nil {
		return l, err
	}
	return l, audit.Record(ctx, s.pool, audit.Entry{AccountID: accountID, UserID: by.UserID, Action: "staff.line_assigned",
		Target: in.Number, IP: ip, Details: map[string]any{"staff": by.Username, "kind": in.Kind, "default": in.Default}})
}

// Tariff is one operator's price for an account; Own marks an override of the default.
type Tariff struct {
	Operator     string `json:"operator"`
	PartPrice    int64  `json:"part_price"`
	SurchargePct int    `json:"surcharge_pct"`
	SendFee      int64  `json:"send_fee"`
	Own          bool   `json:"own"`
}

// Tariffs lists the prices that apply to an account, per operator.
func (s *Service) Tariffs(ctx context.Context, accountID int64) ([]Tariff, error) {
	if _, err := s.Account(ctx, accountID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT ON (operator) operator, part_price, surcharge_pct, send_fee,
		account_id IS NOT NULL FROM tariffs WHERE account_id = $1 OR account_id IS NULL ORDER BY operator, account_id NULLS LAST`, accountID)
	if err != nil {
		return nil, fmt.Errorf("account tariffs: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Tariff, error) {
		var t Tariff
		err := r.Scan(&t.Operator, &t.PartPrice, &t.SurchargePct, &t.SendFee, &t.Own)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("account tariffs: %w", err)
	}
	return out, nil
}

// SetTariff stores an account's own price for an operator (it applies to sends
// priced after the pricing cache's TTL), audited with the staff member.
func (s *Service) SetTariff(ctx context.Context, by acl.Identity, accountID int64, t Tariff, ip string) error {
	if t.PartPrice < 0 || t.SurchargePct < 0 || t.SendFee < 0 {
		return apperr.Field("part_price", MsgTariff)
	}
	if _, err := s.Account(ctx, accountID); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO tariffs (account_id, operator, part_price, surcharge_pct, send_fee)
			SELECT $1, code, $3, $4, $5 FROM operators WHERE code = $2 AND code <> 'sandbox'
			ON CONFLICT (account_id, operator) DO UPDATE SET part_price = $3, surcharge_pct = $4, send_fee = $5`,
			accountID, t.Operator, t.PartPrice, t.SurchargePct, t.SendFee)
		if err != nil {
			return fmt.Errorf("set tariff: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.Field("operator", MsgOperator)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: accountID, UserID: by.UserID, Action: "staff.tariff_set",
			Target: t.Operator, IP: ip, Details: map[string]any{"staff": by.Username, "part_price": t.PartPrice,
				"surcharge_pct": t.SurchargePct, "send_fee": t.SendFee, "account": strconv.FormatInt(accountID, 10)}})
	})
}
