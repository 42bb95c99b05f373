// Package offline runs the offline payments of spec §4/§5: a customer reports a
// card-to-card or bank transfer to the platform's card or account (shown from the
// settings) with the payer's card or Sheba number, the amount, when it was made,
// the bank's tracking number and a receipt (JPEG, PNG or PDF, checked by content).
// The report is a pending offline payment and an item of the back office's review
// queue (review kind offline_payment). Approval credits the wallet through the
// ledger once, by the reference offline:<id>:credit — for a card-to-card transfer
// the amount less 10% tax (spec §9) — and rejection records the reason the
// customer sees.
package offline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/upload"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/wallet"
)

// Methods of an offline payment.
const (
	Card = "card"
	Bank = "bank"
)

// States of an offline payment.
const (
	Pending  = "pending"
	Approved = "approved"
	Rejected = "rejected"
)

// Limits of a report.
const (
	// MaxReceipt is the largest receipt, in bytes (spec §9 image: 2 MB).
	MaxReceipt = 2 << 20
	// MaxAge is how old a reported transfer may be.
	MaxAge = 30 * 24 * time.Hour
	// TaxPercent is deducted from a card-to-card transfer (spec §9).
	TaxPercent = 10
)

// receiptTypes are the receipt contents accepted, as http.DetectContentType names them.
var receiptTypes = map[string]string{"image/jpeg": "jpg", "image/png": "png", "application/pdf": "pdf"}

// Tax is the tax deducted from a card-to-card transfer of amount rials: 10%, rounded
// to the nearest rial (half up); a bank transfer pays none.
func Tax(method string, amount int64) int64 {
	if method != Card {
		return 0
	}
	return payment.Tax(amount)
}

// Payment is one reported transfer as its account sees it.
type Payment struct {
	ID             int64      `json:"id"`
	Method         string     `json:"method"`
	Amount         int64      `json:"amount"`
	Tax            int64      `json:"tax"`
	Credit         int64      `json:"credit"`
	Source         string     `json:"source"`
	TrackingNumber string     `json:"tracking_number"`
	TransferredAt  time.Time  `json:"transferred_at"`
	ReceiptName    string     `json:"receipt_name"`
	ReceiptType    string     `json:"receipt_type"`
	State          string     `json:"state"`
	Reason         string     `json:"reason"`
	CreatedAt      time.Time  `json:"created_at"`
	DecidedAt      *time.Time `json:"decided_at"`
	AccountID      int64      `json:"account_id"`
	// Destination is the platform's card or Sheba the transfer went to ('' for
	// reports made before it was recorded).
	Destination string `json:"destination"`
	// Others are the other reports of the same transfer (ForReview, staff only).
	Others     []Other `json:"others,omitempty"`
	receiptKey string
}

// Report is a customer's report of a transfer, as the form sends it.
type Report struct {
	Method         string
	Amount         string
	Source         string // the payer's card number (card) or Sheba number (bank)
	TrackingNumber string
	TransferredAt  string // RFC 3339
	Receipt        io.Reader
	ReceiptName    string
	IP             string
}

// Service stores the offline payments.
type Service struct {
	pool  *pgxpool.Pool
	store upload.Storage
	// OnMoney is told every new balance an approval makes; it may be nil.
	OnMoney func(ctx context.Context, accountID, balance int64)
	// Dest is the platform's card and account reports name as their destination.
	Dest Destination
	now  func() time.Time
}

// New returns the service, keeping receipts in store.
func New(pool *pgxpool.Pool, store upload.Storage) *Service {
	return &Service{pool: pool, store: store, now: time.Now}
}

// Create checks a report, stores its receipt and records it as a pending offline
// payment in the review queue, audited. Every bad field is answered at once.
func (s *Service) Create(ctx context.Context, id acl.Identity, r Report) (Payment, error) {
	p, err := s.check(r)
	if err != nil {
		return p, err
	}
	data, ctype, err := readReceipt(r.Receipt)
	if err != nil {
		return p, err
	}
	p.ReceiptType, p.ReceiptName, p.AccountID = ctype, clip(r.ReceiptName, 200), id.AccountID
	p.Destination = s.destination(p.Method)
	p.receiptKey = fmt.Sprintf("receipts/%d/%s.%s", id.AccountID, upload.NewKey(), receiptTypes[ctype])
	if _, err := s.store.Put(ctx, p.receiptKey, bytes.NewReader(data)); err != nil {
		return p, fmt.Errorf("store receipt: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return s.insert(ctx, tx, id, &p, int64(len(data)), r.IP) })
	if err != nil {
		_ = s.store.Delete(context.WithoutCancel(ctx), p.receiptKey)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.ConstraintName == "offline_payments_transfer" {
			return p, apperr.Field("tracking_number", MsgDuplicate)
		}
		return p, err
	}
	return p, nil
}

func (s *Service) insert(ctx context.Context, tx pgx.Tx, id acl.Identity, p *Payment, size int64, ip string) error {
	if err := claimTransfer(ctx, tx, p); err != nil {
		return err
	}
	err := tx.QueryRow(ctx, `INSERT INTO offline_payments (account_id, user_id, method, amount, tax, credit, source,
		tracking_number, transferred_at, receipt_key, receipt_type, receipt_name, receipt_size, destination)
		VALUES ($1, nullif($2, 0), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id, state, created_at`,
		id.AccountID, id.UserID, p.Method, p.Amount, p.Tax, p.Credit, p.Source, p.TrackingNumber, p.TransferredAt,
		p.receiptKey, p.ReceiptType, p.ReceiptName, size, p.Destination).Scan(&p.ID, &p.State, &p.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert offline payment: %w", err)
	}
	if err := review.Submit(ctx, tx, Kind, id.AccountID, p.ID, nil, p.summary()); err != nil {
		return err
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
		Action: "payment.offline_create", Target: strconv.FormatInt(p.ID, 10), IP: ip,
		Details: map[string]any{"method": p.Method, "amount": p.Amount, "tracking_number": p.TrackingNumber}})
}

// summary is the review queue's one-line description of the report.
func (p Payment) summary() string {
	m := "کارت به کارت"
	if p.Method == Bank {
		m = "واریز بانکی"
	}
	return m + ": " + wallet.Rials(p.Amount) + " ریال (اعتبار " + wallet.Rials(p.Credit) + " ریال)، پیگیری " +
		persian.Digits(p.TrackingNumber)
}

// check validates the form fields of a report.
func (s *Service) check(r Report) (Payment, error) {
	p := Payment{Method: r.Method}
	f := apperr.Fields{}
	amount, err := strconv.ParseInt(digitsOnly(strings.NewReplacer(",", "", "٬", "", "،", "").Replace(r.Amount)), 10, 64)
	switch {
	case err != nil || amount < payment.MinAmount:
		f.Add("amount", MsgAmount)
	case amount > payment.MaxAmount:
		f.Add("amount", MsgAmountMax)
	}
	p.Amount, p.Tax = amount, Tax(r.Method, amount)
	p.Credit = p.Amount - p.Tax
	var ok bool
	if p.Method == Card {
		if p.Source, ok = NormalizeCard(r.Source); !ok {
			f.Add("card_number", MsgCard)
		}
	} else if p.Source, ok = NormalizeIBAN(r.Source); !ok {
		f.Add("sheba", MsgAccount)
	}
	if p.TrackingNumber, ok = normalizeTracking(r.TrackingNumber); !ok {
		f.Add("tracking_number", MsgTracking)
	}
	if msg := s.checkTime(r.TransferredAt, &p.TransferredAt); msg != "" {
		f.Add("transferred_at", msg)
	}
	return p, f.Err()
}

func (s *Service) checkTime(raw string, at *time.Time) string {
	t, err := time.Parse(time.RFC3339, validate.ToLatinDigits(strings.TrimSpace(raw)))
	switch now := s.now(); {
	case err != nil:
		return MsgTime
	case t.After(now.Add(5 * time.Minute)):
		return MsgTimeFuture
	case t.Before(now.Add(-MaxAge)):
		return MsgTimeOld
	}
	*at = t
	return ""
}

// readReceipt reads a receipt of at most MaxReceipt bytes and names its content
// type, from its bytes (never from its name or the client's claim).
func readReceipt(r io.Reader) ([]byte, string, error) {
	if r == nil {
		return nil, "", apperr.Field("receipt", MsgNoReceipt)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxReceipt+1))
	switch {
	case err != nil:
		return nil, "", fmt.Errorf("read receipt: %w", err)
	case len(data) == 0:
		return nil, "", apperr.Field("receipt", MsgNoReceipt)
	case len(data) > MaxReceipt:
		return nil, "", apperr.Field("receipt", MsgReceiptBig)
	}
	ctype := http.DetectContentType(data)
	if _, ok := receiptTypes[ctype]; !ok {
		return nil, "", apperr.Field("receipt", MsgReceiptBad)
	}
	return data, ctype, nil
}

const columns = `id, account_id, method, amount, tax, credit, source, tracking_number, transferred_at, receipt_name,
	receipt_type, state, reason, created_at, decided_at, receipt_key, destination`

func scan(r pgx.CollectableRow) (Payment, error) {
	var p Payment
	err := r.Scan(&p.ID, &p.AccountID, &p.Method, &p.Amount, &p.Tax, &p.Credit, &p.Source, &p.TrackingNumber,
		&p.TransferredAt, &p.ReceiptName, &p.ReceiptType, &p.State, &p.Reason, &p.CreatedAt, &p.DecidedAt, &p.receiptKey,
		&p.Destination)
	return p, err
}

// List returns one page of an account's reports, newest first, and the total.
func (s *Service) List(ctx context.Context, accountID int64, pg validate.Paging) ([]Payment, int64, error) {
	return db.Page(ctx, s.pool, "offline payments", columns, `FROM offline_payments WHERE account_id = $1`, "id DESC",
		[]any{accountID}, pg.Limit, pg.Page, scan)
}

// Get returns one report, for staff (any account).
func (s *Service) Get(ctx context.Context, id int64) (Payment, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+columns+` FROM offline_payments WHERE id = $1`, id)
	if err != nil {
		return Payment{}, fmt.Errorf("offline payment: %w", err)
	}
	p, err := pgx.CollectExactlyOneRow(rows, scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, apperr.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("offline payment: %w", err)
	}
	return p, nil
}

// Receipt opens the stored receipt of a report, for staff.
func (s *Service) Receipt(ctx context.Context, id int64) (Payment, io.ReadCloser, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return p, nil, err
	}
	rc, err := s.store.Open(ctx, p.receiptKey)
	if errors.Is(err, upload.ErrNoObject) {
		return p, nil, apperr.ErrNotFound
	}
	return p, rc, err
}

func clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "")
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
