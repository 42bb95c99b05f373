package payment

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/wallet"
)

// CallbackPath is the API route the bank sends the payer back to.
const CallbackPath = "/v1/api/payment/callback"

// DefaultReturn is the panel page that shows a payment's result.
const DefaultReturn = "/wallet/payment-result"

// RefundWindow is how soon taken money of a failed payment is returned (spec §4).
const RefundWindow = 72 * time.Hour

// Service runs the online payments of the accounts.
type Service struct {
	pool *pgxpool.Pool
	gw   Gateway
	// gws are every gateway the service knows, by name (gw among them): callbacks,
	// the settle task and returns go to a payment's own gateway.
	gws map[string]Gateway
	// Choose names the gateway of a new payment (the staff's choice); nil keeps gw.
	Choose func(ctx context.Context) (string, error)
	// Settings are the staff's gateway settings (the back office); nil without them.
	Settings *Settings
	// PublicURL, when set, prefixes the callback URL given to the bank (a real PSP
	// needs an absolute URL); empty gives a path on the API's own origin.
	PublicURL string
	// PendingTimeout is how long a payment may stay pending before the settle task
	// asks the bank and resolves it.
	PendingTimeout time.Duration
	// OnMoney is told every new balance (the credit.changed event); it may be nil.
	OnMoney func(ctx context.Context, accountID, balance int64)
	// Offers holds the staff-configured charge packages and today gift; nil offers none.
	Offers *content.Service
}

// New returns the payment service over a gateway.
func New(pool *pgxpool.Pool, gw Gateway) *Service {
	return &Service{pool: pool, gw: gw, gws: map[string]Gateway{gw.Name(): gw}, PendingTimeout: 15 * time.Minute}
}

// Gateway is the service's default payment provider.
func (s *Service) Gateway() Gateway { return s.gw }

// Payment is one online payment as the owner sees it.
type Payment struct {
	ID          int64      `json:"id"`
	Amount      int64      `json:"amount"`
	Tax         int64      `json:"tax"`
	Total       int64      `json:"total"`
	State       string     `json:"state"`
	Message     string     `json:"message"`
	BankRef     string     `json:"bank_ref"`
	Description string     `json:"description"`
	RefundState string     `json:"refund_state"`
	CreatedAt   time.Time  `json:"created_at"`
	SettledAt   *time.Time `json:"settled_at"`
	Bonus       int64      `json:"bonus"`
	GiftAmount  int64      `json:"gift_amount"`
	authority   string
	txn         string
	gateway     string
	accountID   int64
	returnTo    string
	offer       offer
}

// Request is an owner's request for a payment link.
type Request struct {
	AccountID   int64
	UserID      int64
	Amount      int64
	ReturnTo    string // the panel page to come back to (a path on this origin)
	Description string
	offer       offer
}

// Started is a created payment and the bank page to send the payer to.
type Started struct {
	URL       string `json:"url"`
	PaymentID int64  `json:"payment_id"`
	Amount    int64  `json:"amount"`
	Tax       int64  `json:"tax"`
	Total     int64  `json:"total"`
	// Bonus is the charge package's extra credit and Gift the today gift promised
	// to the payment, each credited as its own entry once it is paid.
	Bonus int64 `json:"bonus"`
	Gift  int64 `json:"gift"`
}

// Start creates a pending payment of r.Amount rials plus tax and opens its bank
// session. A payment the bank refuses to open is marked failed.
func (s *Service) Start(ctx context.Context, r Request) (Started, error) {
	ret, err := checkRequest(&r)
	if err != nil {
		return Started{}, err
	}
	if err := s.promiseGift(ctx, r.AccountID, &r.offer); err != nil {
		return Started{}, err
	}
	gw, err := s.active(ctx)
	if err != nil {
		return Started{}, err
	}
	tax, o := Tax(r.Amount), r.offer
	st := Started{Amount: r.Amount, Tax: tax, Total: r.Amount + tax, Bonus: o.bonus, Gift: o.giftAmount}
	err = s.pool.QueryRow(ctx, `INSERT INTO payments (account_id, user_id, amount, tax, total, gateway, return_to, description,
		package_id, bonus, bonus_title, gift_id, gift_amount)
		VALUES ($1, nullif($2, 0), $3, $4, $5, $6, $7, $8, nullif($9, 0), $10, $11, nullif($12, 0), $13) RETURNING id`,
		r.AccountID, r.UserID, r.Amount, tax, st.Total, gw.Name(), ret, r.Description,
		o.packageID, o.bonus, o.bonusTitle, o.giftID, o.giftAmount).Scan(&st.PaymentID)
	if err != nil {
		return Started{}, fmt.Errorf("insert payment: %w", err)
	}
	authority, payURL, err := gw.Create(ctx, st.Total, s.callbackURL(gw), r.Description)
	if err == nil {
		_, err = s.pool.Exec(ctx, `UPDATE payments SET authority = $2 WHERE id = $1`, st.PaymentID, authority)
	}
	if err != nil {
		_, _ = s.pool.Exec(context.WithoutCancel(ctx), `UPDATE payments SET state = 'failed', settled_at = now() WHERE id = $1`, st.PaymentID)
		return Started{}, unavailable(fmt.Errorf("open bank session: %w", err))
	}
	st.URL = payURL
	return st, nil
}

// checkRequest validates a payment request and returns the cleaned return path.
func checkRequest(r *Request) (string, error) {
	f := apperr.Fields{}
	if r.Amount < MinAmount {
		f.Add("amount", MsgMinAmount)
	} else if r.Amount > MaxAmount {
		f.Add("amount", "مبلغ پرداخت بیش از حد مجاز است")
	}
	r.Description = strings.TrimSpace(r.Description)
	if utf8.RuneCountInString(r.Description) > 255 {
		f.Add("description", "توضیحات حداکثر ۲۵۵ نویسه است")
	}
	ret, ok := returnPath(r.ReturnTo)
	if !ok {
		f.Add("callbackUrl", "آدرس بازگشت معتبر نیست")
	}
	return ret, f.Err()
}

// returnPath keeps the path and query of the panel page to return to: only a page
// of this origin, never another site (no open redirect).
func returnPath(raw string) (string, bool) {
	if raw == "" {
		return DefaultReturn, true
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || strings.ContainsAny(u.Path, "\\") {
		return "", false
	}
	p := u.EscapedPath()
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p, len(p) <= 500
}

// Get returns one payment of an account.
func (s *Service) Get(ctx context.Context, accountID, id int64) (Payment, error) {
	p, err := s.load(ctx, s.pool, `WHERE id = $1 AND account_id = $2`, id, accountID)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, apperr.ErrNotFound
	}
	return p, err
}

// Return is the panel address that shows the result of a payment.
func (p Payment) Return() string {
	sep := "?"
	if strings.Contains(p.returnTo, "?") {
		sep = "&"
	}
	q := url.Values{"id": {strconv.FormatInt(p.ID, 10)}, "status": {p.State}}
	if p.State == Paid {
		q.Set("amount", strconv.FormatInt(p.Amount, 10))
	}
	return p.returnTo + sep + q.Encode()
}

func (s *Service) load(ctx context.Context, q wallet.Querier, where string, args ...any) (Payment, error) {
	var p Payment
	err := q.QueryRow(ctx, `SELECT id, account_id, amount, tax, total, state, bank_ref, description, refund_state,
		created_at, settled_at, authority, bank_txn, gateway, return_to, coalesce(package_id, 0), bonus, bonus_title, coalesce(gift_id, 0), gift_amount
		FROM payments `+where, args...).Scan(&p.ID, &p.accountID, &p.Amount,
		&p.Tax, &p.Total, &p.State, &p.BankRef, &p.Description, &p.RefundState, &p.CreatedAt, &p.SettledAt, &p.authority, &p.txn, &p.gateway, &p.returnTo,
		&p.offer.packageID, &p.offer.bonus, &p.offer.bonusTitle, &p.offer.giftID, &p.offer.giftAmount)
	if err != nil {
		return p, fmt.Errorf("load payment: %w", err)
	}
	p.Message, p.Bonus, p.GiftAmount = message(p.State), p.offer.bonus, p.offer.giftAmount
	return p, nil
}

func message(state string) string {
	return map[string]string{Pending: MsgPending, Paid: MsgPaid, Failed: MsgFailed, Expired: MsgExpired}[state]
}

// logf logs a payment event.
func logf(ctx context.Context, msg string, args ...any) { slog.InfoContext(ctx, msg, args...) }
