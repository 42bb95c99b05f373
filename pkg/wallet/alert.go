package wallet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
)

// MinAlertThreshold is the lowest low-balance alert threshold (spec §9), in rials.
const MinAlertThreshold = 200_000

// Persian messages of the low-balance alert.
const (
	MsgAlertMin = "حداقل مبلغ هشدار کمبود اعتبار ۲۰۰٬۰۰۰ ریال است"
	MsgAlertMax = "مبلغ هشدار کمبود اعتبار بیش از حد مجاز است"
)

// maxAlertThreshold bounds a threshold to a sane amount (10^13 rials).
const maxAlertThreshold = 10_000_000_000_000

// PurposeLowBalance marks the low-balance alert among the verification messages.
const PurposeLowBalance = "low_balance"

// seqLowBalance is the Seq of an alert's task (jobs.NewVerification): a value no code
// or security notice uses, so the task id "otp:<ledger row>:-10" is the alert's own.
const seqLowBalance = -10

// Enqueuer queues the alert's SMS (an asynq client).
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Publisher sends a live event to an account's open panels.
type Publisher interface {
	Publish(ctx context.Context, accountID int64, event string, data any) error
}

// AlertSetting is the account's low-balance alert as the panel shows it.
type AlertSetting struct {
	Enabled   bool  `json:"enabled"`
	Threshold int64 `json:"threshold"`
	Minimum   int64 `json:"minimum"`
	Balance   int64 `json:"balance"`
	// Below is true when the balance is under the threshold now.
	Below bool `json:"below"`
}

// LowBalance is the data of the live credit.changed event an alert sends.
type LowBalance struct {
	Credit     int64 `json:"credit"`
	LowBalance bool  `json:"low_balance"`
	Threshold  int64 `json:"threshold"`
}

// Alerts keeps the low-balance alerts: one SMS to the owner (through the platform
// account's verification path) and one live event when the balance falls below the
// threshold, then nothing until a recharge takes it back to the threshold or above.
type Alerts struct {
	pool  *pgxpool.Pool
	queue Enqueuer
	// Live, when set, receives the alert's credit.changed event.
	Live Publisher
}

// NewAlerts returns the alert keeper.
func NewAlerts(pool *pgxpool.Pool, queue Enqueuer) *Alerts {
	return &Alerts{pool: pool, queue: queue}
}

// Watch wraps a balance listener (the credit.changed publisher, may be nil) so every
// balance change is checked against the account's alert after it is told.
func (a *Alerts) Watch(next func(ctx context.Context, accountID, balance int64)) func(ctx context.Context, accountID, balance int64) {
	return func(ctx context.Context, accountID, balance int64) {
		if next != nil {
			next(ctx, accountID, balance)
		}
		if err := a.Check(ctx, accountID); err != nil {
			slog.ErrorContext(ctx, "low-balance alert", "account", accountID, "err", err)
		}
	}
}

// Setting returns the account's alert (disabled when none is set).
func (a *Alerts) Setting(ctx context.Context, accountID int64) (AlertSetting, error) {
	out := AlertSetting{Minimum: MinAlertThreshold}
	err := a.pool.QueryRow(ctx, `SELECT coalesce((SELECT threshold FROM wallet_alerts WHERE account_id = $1), 0),
		coalesce((SELECT balance FROM wallets WHERE account_id = $1), 0)`, accountID).Scan(&out.Threshold, &out.Balance)
	if err != nil {
		return out, fmt.Errorf("alert setting: %w", err)
	}
	out.Enabled = out.Threshold > 0
	out.Below = out.Enabled && out.Balance < out.Threshold
	return out, nil
}

// Set turns the alert on at threshold rials, or off. A balance already below the new
// threshold counts as alerted: the next alert needs a recharge above it first.
func (a *Alerts) Set(ctx context.Context, accountID, userID int64, enabled bool, threshold int64) (AlertSetting, error) {
	if !enabled {
		if _, err := a.pool.Exec(ctx, `DELETE FROM wallet_alerts WHERE account_id = $1`, accountID); err != nil {
			return AlertSetting{}, fmt.Errorf("alert off: %w", err)
		}
		return a.Setting(ctx, accountID)
	}
	if threshold < MinAlertThreshold {
		return AlertSetting{}, apperr.Field("threshold", MsgAlertMin)
	}
	if threshold > maxAlertThreshold {
		return AlertSetting{}, apperr.Field("threshold", MsgAlertMax)
	}
	last, balance, err := lastRow(ctx, a.pool, accountID)
	if err != nil {
		return AlertSetting{}, err
	}
	var notified *int64
	if balance < threshold {
		notified = &last
	}
	if _, err := a.pool.Exec(ctx, `INSERT INTO wallet_alerts (account_id, threshold, notified_after, updated_by)
		VALUES ($1, $2, $3, nullif($4, 0))
		ON CONFLICT (account_id) DO UPDATE SET threshold = $2, notified_after = $3, updated_by = nullif($4, 0), updated_at = now()`,
		accountID, threshold, notified, userID); err != nil {
		return AlertSetting{}, fmt.Errorf("alert on: %w", err)
	}
	return a.Setting(ctx, accountID)
}

// lastRow is the account's newest ledger row and the balance after it (0, 0 when it
// has none). Ledger rows of one account are written under its wallet lock, so the
// newest row carries the current balance.
func lastRow(ctx context.Context, q Querier, accountID int64) (id, balance int64, err error) {
	err = q.QueryRow(ctx, `SELECT id, balance_after FROM ledger WHERE account_id = $1 ORDER BY id DESC LIMIT 1`,
		accountID).Scan(&id, &balance)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("last ledger row: %w", err)
	}
	return id, balance, nil
}

// Check fires the account's alert when its balance is below the threshold and the
// alert is armed; it re-arms an alert whose balance went back to the threshold or
// above since the last one. The SMS is queued inside the transaction that marks the
// alert sent (its task id is the ledger row's), so a crash never loses or doubles it.
func (a *Alerts) Check(ctx context.Context, accountID int64) error {
	// Most accounts set no alert: one read spares them a transaction per movement.
	var set bool
	if err := a.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM wallet_alerts WHERE account_id = $1)`, accountID).Scan(&set); err != nil || !set {
		return err
	}
	var fired *LowBalance
	err := pgx.BeginFunc(ctx, a.pool, func(tx pgx.Tx) error {
		var threshold int64
		var notified *int64
		err := tx.QueryRow(ctx, `SELECT threshold, notified_after FROM wallet_alerts WHERE account_id = $1 FOR UPDATE`,
			accountID).Scan(&threshold, &notified)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read alert: %w", err)
		}
		if notified != nil {
			var recharged bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ledger WHERE account_id = $1 AND id > $2 AND balance_after >= $3)`,
				accountID, *notified, threshold).Scan(&recharged); err != nil {
				return fmt.Errorf("alert recharge: %w", err)
			}
			if !recharged {
				return nil
			}
		}
		last, balance, err := lastRow(ctx, tx, accountID)
		if err != nil {
			return err
		}
		if balance >= threshold {
			_, err = tx.Exec(ctx, `UPDATE wallet_alerts SET notified_after = NULL WHERE account_id = $1`, accountID)
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE wallet_alerts SET notified_after = $2 WHERE account_id = $1`, accountID, last); err != nil {
			return fmt.Errorf("mark alert: %w", err)
		}
		fired = &LowBalance{Credit: balance, LowBalance: true, Threshold: threshold}
		return a.sms(ctx, tx, accountID, last, *fired)
	})
	if err != nil || fired == nil {
		return err
	}
	if a.Live != nil {
		if err := a.Live.Publish(ctx, accountID, "credit.changed", fired); err != nil {
			slog.WarnContext(ctx, "low-balance live event", "account", accountID, "err", err)
		}
	}
	return nil
}

// sms queues the alert text to the owner's proven mobile (none: no SMS).
func (a *Alerts) sms(ctx context.Context, tx pgx.Tx, accountID, ledgerID int64, lb LowBalance) error {
	var userID int64
	var mobile string
	err := tx.QueryRow(ctx, `SELECT id, mobile FROM users WHERE account_id = $1 AND is_owner AND mobile_verified
		AND mobile <> '' AND status = 'active' ORDER BY id LIMIT 1`, accountID).Scan(&userID, &mobile)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("alert owner: %w", err)
	}
	task, err := jobs.NewVerification(jobs.Verification{UserID: userID, Mobile: mobile, Text: AlertText(lb.Credit, lb.Threshold),
		Purpose: PurposeLowBalance, ChallengeID: ledgerID, Seq: seqLowBalance})
	if err != nil {
		return err
	}
	if _, err := a.queue.EnqueueContext(ctx, task); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		return fmt.Errorf("enqueue low-balance alert: %w", err)
	}
	return nil
}

// AlertText is the alert SMS: the balance and the threshold in Persian digits.
func AlertText(balance, threshold int64) string {
	return "چاپار: اعتبار حساب شما " + Rials(balance) + " ریال است و از حد هشدار " + Rials(threshold) +
		" ریال کمتر شده است. برای ادامه ارسال، حساب خود را شارژ کنید."
}

// Rials writes an amount with Persian digits and the Persian thousands separator.
func Rials(n int64) string {
	s, sign := strconv.FormatInt(n, 10), ""
	if n < 0 {
		s, sign = s[1:], "-"
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune('٬')
		}
		b.WriteRune(c)
	}
	return sign + persian.Digits(b.String())
}
