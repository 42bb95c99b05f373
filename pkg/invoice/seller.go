package invoice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// sellerKey is the settings row of the seller's details.
const sellerKey = "invoice_seller"

// Persian messages of the seller's details.
const (
	// MsgSellerMissing is the 409 of an invoice asked for before staff set the
	// seller's details: an official invoice needs the seller's tax identity.
	MsgSellerMissing = "صدور فاکتور رسمی هنوز ممکن نیست: مشخصات فروشنده (نام، شناسه ملی، کد اقتصادی و نشانی) در بخش مدیریت ثبت نشده است. لطفا با پشتیبانی تماس بگیرید."
	MsgSellerPhone   = "تلفن باید ۸ تا ۱۱ رقم باشد"
	MsgSellerLong    = "حداکثر ۳۰۰ نویسه مجاز است"
)

// Seller is the platform's legal details printed on every invoice, set by staff
// in the back office (GET/POST /admin/invoice-seller).
type Seller struct {
	Name           string `json:"name"`
	NationalID     string `json:"national_id"`         // شناسه ملی
	EconomicCode   string `json:"economic_code"`       // کد اقتصادی
	RegistrationNo string `json:"registration_number"` // شماره ثبت
	Address        string `json:"address"`
	PostalCode     string `json:"postal_code"`
	Phone          string `json:"phone"`
}

// normalized trims the fields and writes their digits in Latin.
func (s Seller) normalized() Seller {
	t := func(v string) string { return strings.TrimSpace(v) }
	d := func(v string) string { return validate.NormalizeDigits(strings.TrimSpace(v)) }
	return Seller{Name: t(s.Name), NationalID: d(s.NationalID), EconomicCode: d(s.EconomicCode),
		RegistrationNo: d(s.RegistrationNo), Address: t(s.Address), PostalCode: d(s.PostalCode), Phone: d(s.Phone)}
}

// check validates every field; all are required on an official invoice.
func (s Seller) check() error {
	long := func(field, v string) error {
		if len([]rune(v)) > 300 {
			return &validate.Error{Field: field, Message: MsgSellerLong}
		}
		return nil
	}
	phone := func(v string) error {
		if n := len(v); n < 8 || n > 11 || strings.Trim(v, "0123456789") != "" {
			return &validate.Error{Field: "phone", Message: MsgSellerPhone}
		}
		return nil
	}
	f := validate.Collect(
		validate.NotBlank("name", s.Name), long("name", s.Name),
		validate.InField("national_id", validate.CompanyNationalID(s.NationalID)),
		validate.InField("economic_code", validate.EconomicNumber(s.EconomicCode)),
		validate.InField("registration_number", validate.RegistrationNumber(s.RegistrationNo)),
		validate.NotBlank("address", s.Address), long("address", s.Address),
		validate.PostalCode(s.PostalCode), phone(s.Phone))
	if len(f) > 0 {
		return apperr.Fields(f).Err()
	}
	return nil
}

// Complete reports whether every field an invoice needs is set.
func (s Seller) Complete() bool { return s.normalized().check() == nil }

// Seller reads the seller's details; the zero Seller when staff never set them.
func (s *Service) Seller(ctx context.Context) (Seller, error) {
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT value FROM settings WHERE key = $1`, sellerKey).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return Seller{}, nil
	}
	if err != nil {
		return Seller{}, fmt.Errorf("read invoice seller: %w", err)
	}
	var out Seller
	if err := json.Unmarshal(raw, &out); err != nil {
		return Seller{}, fmt.Errorf("read invoice seller: %w", err)
	}
	return out, nil
}

// SetSeller stores the seller's details (every field required and checked),
// audited with the staff member. Invoices already issued keep the details they
// were printed with.
func (s *Service) SetSeller(ctx context.Context, by acl.Identity, in Seller, ip string) (Seller, error) {
	in = in.normalized()
	if err := in.check(); err != nil {
		return Seller{}, err
	}
	raw, _ := json.Marshal(in)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO settings (key, value) VALUES ($1, $2)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`, sellerKey, raw); err != nil {
			return fmt.Errorf("save invoice seller: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.invoice_seller_changed",
			TargetType: "settings", Target: sellerKey, IP: ip, After: in, Details: map[string]any{"staff": by.Username}})
	})
	if err != nil {
		return Seller{}, err
	}
	return in, nil
}

// SeedSeller stores the seller's details unless staff already set them (the
// demo seed: `api seed-demo`); it is not audited, as no one acted.
func SeedSeller(ctx context.Context, pool *pgxpool.Pool, in Seller) error {
	in = in.normalized()
	if err := in.check(); err != nil {
		return err
	}
	raw, _ := json.Marshal(in)
	if _, err := pool.Exec(ctx, `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, sellerKey, raw); err != nil {
		return fmt.Errorf("seed invoice seller: %w", err)
	}
	return nil
}
