// Package invoice makes the official Persian invoice (فاکتور) of a paid online
// payment as a PDF. The invoice is an RTL HTML page (html/template, the embedded
// Vazirmatn font) printed to PDF by headless Chromium, which shapes Persian text;
// Go PDF libraries without shaping break the letters apart. A payment's PDF is made
// once, on its first download, and kept in the invoices table.
package invoice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
)

// Buyer is the paying account's details: its name, its owner's, and the tax
// identity from its profile (docs/profile.md): a real person's national code, a
// legal person's company name, national id, economic code and registration
// number, and the address with its postal code.
type Buyer struct {
	Account string
	Owner   string
	Mobile  string
	Tax     BuyerTax
}

// BuyerTax is the buyer's profile fields an official invoice shows (empty when
// not filled in).
type BuyerTax struct {
	Legal          bool
	CompanyName    string `json:"company_name"`
	NationalCode   string `json:"national_code"`
	NationalID     string `json:"company_national_id"`
	EconomicCode   string `json:"economic_number"`
	RegistrationNo string `json:"registration_number"`
	Address        string `json:"address"`
	PostalCode     string `json:"postal_code"`
	Landline       string `json:"landline"`
	CityCode       string `json:"city_code"`
}

// Invoice is everything one invoice shows.
type Invoice struct {
	PaymentID int64
	Amount    int64 // the wallet credit, rials
	Tax       int64
	Total     int64
	BankRef   string
	PaidAt    time.Time
	Seller    Seller
	Buyer     Buyer
}

// Number is the invoice number, derived from the payment id.
func (in Invoice) Number() string { return fmt.Sprintf("%08d", in.PaymentID) }

// Service makes and keeps the invoices of the accounts' payments.
type Service struct {
	pool     *pgxpool.Pool
	Renderer *Renderer
}

// New returns the service printing with the Chromium at chromium (empty:
// /usr/bin/chromium). The seller's details are staff settings (seller.go).
func New(pool *pgxpool.Pool, chromium string) *Service {
	return &Service{pool: pool, Renderer: NewRenderer(chromium)}
}

// PDF returns the invoice of a paid payment of the account, making it on first use.
// A payment of another account, or one not paid, is apperr.ErrNotFound; a first
// invoice before staff set the seller's details is MsgSellerMissing (409), and
// nothing is kept.
func (s *Service) PDF(ctx context.Context, accountID, paymentID int64) ([]byte, error) {
	var pdf []byte
	err := s.pool.QueryRow(ctx, `SELECT pdf FROM invoices WHERE payment_id = $1 AND account_id = $2`,
		paymentID, accountID).Scan(&pdf)
	if err == nil {
		return pdf, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("read invoice: %w", err)
	}
	in, err := s.Load(ctx, accountID, paymentID)
	if err != nil {
		return nil, err
	}
	if pdf, err = s.Renderer.PDF(ctx, in); err != nil {
		return nil, err
	}
	// Two first downloads at once both print; the first kept copy is the one served.
	// The read is its own statement: an INSERT that lost the race waited for the
	// winner's commit, which only a later statement's snapshot sees.
	if _, err = s.pool.Exec(ctx, `INSERT INTO invoices (payment_id, account_id, pdf) VALUES ($1, $2, $3)
		ON CONFLICT (payment_id) DO NOTHING`, paymentID, accountID, pdf); err != nil {
		return nil, fmt.Errorf("keep invoice: %w", err)
	}
	err = s.pool.QueryRow(ctx, `SELECT pdf FROM invoices WHERE payment_id = $1`, paymentID).Scan(&pdf)
	if err != nil {
		return nil, fmt.Errorf("keep invoice: %w", err)
	}
	return pdf, nil
}

// Load reads the invoice of a paid payment of the account, its buyer and the
// seller (MsgSellerMissing while the seller's details are incomplete).
func (s *Service) Load(ctx context.Context, accountID, paymentID int64) (Invoice, error) {
	in := Invoice{PaymentID: paymentID}
	var person string
	var details []byte
	err := s.pool.QueryRow(ctx, `SELECT p.amount, p.tax, p.total, p.bank_ref, coalesce(p.settled_at, p.created_at),
			a.name, coalesce(u.name, ''), coalesce(u.mobile, ''), coalesce(pr.person_type, 'real'), coalesce(pr.details, '{}')
		FROM payments p JOIN accounts a ON a.id = p.account_id
		LEFT JOIN LATERAL (SELECT name, mobile FROM users WHERE account_id = a.id AND is_owner ORDER BY id LIMIT 1) u ON true
		LEFT JOIN profiles pr ON pr.account_id = a.id
		WHERE p.id = $1 AND p.account_id = $2 AND p.state = 'paid'`, paymentID, accountID).Scan(
		&in.Amount, &in.Tax, &in.Total, &in.BankRef, &in.PaidAt, &in.Buyer.Account, &in.Buyer.Owner, &in.Buyer.Mobile,
		&person, &details)
	if errors.Is(err, pgx.ErrNoRows) {
		return in, apperr.ErrNotFound
	}
	if err != nil {
		return in, fmt.Errorf("load invoice: %w", err)
	}
	if err := json.Unmarshal(details, &in.Buyer.Tax); err != nil {
		return in, fmt.Errorf("load invoice buyer: %w", err)
	}
	in.Buyer.Tax.Legal = person == "legal"
	if in.Seller, err = s.Seller(ctx); err != nil {
		return in, err
	}
	if !in.Seller.Complete() {
		return in, apperr.New(apperr.Conflict, MsgSellerMissing)
	}
	if m := in.Buyer.Mobile; len(m) == 12 && strings.HasPrefix(m, "98") {
		in.Buyer.Mobile = "0" + m[2:] // the stored 98… form, as people write it
	}
	return in, nil
}
