// Package invoice makes the official Persian invoice (فاکتور) of a paid online
// payment as a PDF. The invoice is an RTL HTML page (html/template, the embedded
// Vazirmatn font) printed to PDF by headless Chromium, which shapes Persian text;
// Go PDF libraries without shaping break the letters apart. A payment's PDF is made
// once, on its first download, and kept in the invoices table.
package invoice

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
)

// Seller is the platform's legal details printed on every invoice.
type Seller struct {
	Name         string
	NationalID   string
	EconomicCode string
	Address      string
	Phone        string
}

// DefaultSeller is the seller when the configuration names none.
var DefaultSeller = Seller{
	Name:         "شرکت پیام‌رسان چاپار",
	NationalID:   "۱۴۰۰۰۰۰۰۰۰۰",
	EconomicCode: "۴۱۱۱۱۱۱۱۱۱۱۱",
	Address:      "تهران",
	Phone:        "۰۲۱-۰۰۰۰۰۰۰۰",
}

// Or fills the empty fields of s from def.
func (s Seller) Or(def Seller) Seller {
	pick := func(v, d string) string {
		if v == "" {
			return d
		}
		return v
	}
	return Seller{Name: pick(s.Name, def.Name), NationalID: pick(s.NationalID, def.NationalID),
		EconomicCode: pick(s.EconomicCode, def.EconomicCode), Address: pick(s.Address, def.Address), Phone: pick(s.Phone, def.Phone)}
}

// Buyer is the paying account's details: its name and its owner's.
type Buyer struct {
	Account string
	Owner   string
	Mobile  string
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
	Seller   Seller
	Renderer *Renderer
}

// New returns the service of a seller (empty fields from DefaultSeller) printing
// with the Chromium at chromium (empty: /usr/bin/chromium).
func New(pool *pgxpool.Pool, seller Seller, chromium string) *Service {
	return &Service{pool: pool, Seller: seller.Or(DefaultSeller), Renderer: NewRenderer(chromium)}
}

// PDF returns the invoice of a paid payment of the account, making it on first use.
// A payment of another account, or one not paid, is apperr.ErrNotFound.
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

// Load reads the invoice of a paid payment of the account and its buyer.
func (s *Service) Load(ctx context.Context, accountID, paymentID int64) (Invoice, error) {
	in := Invoice{PaymentID: paymentID, Seller: s.Seller}
	err := s.pool.QueryRow(ctx, `SELECT p.amount, p.tax, p.total, p.bank_ref, coalesce(p.settled_at, p.created_at),
			a.name, coalesce(u.name, ''), coalesce(u.mobile, '')
		FROM payments p JOIN accounts a ON a.id = p.account_id
		LEFT JOIN LATERAL (SELECT name, mobile FROM users WHERE account_id = a.id AND is_owner ORDER BY id LIMIT 1) u ON true
		WHERE p.id = $1 AND p.account_id = $2 AND p.state = 'paid'`, paymentID, accountID).Scan(
		&in.Amount, &in.Tax, &in.Total, &in.BankRef, &in.PaidAt, &in.Buyer.Account, &in.Buyer.Owner, &in.Buyer.Mobile)
	if errors.Is(err, pgx.ErrNoRows) {
		return in, apperr.ErrNotFound
	}
	if err != nil {
		return in, fmt.Errorf("load invoice: %w", err)
	}
	if m := in.Buyer.Mobile; len(m) == 12 && strings.HasPrefix(m, "98") {
		in.Buyer.Mobile = "0" + m[2:] // the stored 98… form, as people write it
	}
	return in, nil
}
