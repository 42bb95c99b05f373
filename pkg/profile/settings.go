package profile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/audit"
)

// Notify are the account's notification choices: which events reach the owner by SMS.
type Notify struct {
	LoginSMS       bool `json:"login_sms"`
	TicketAnswer   bool `json:"ticket_answer_sms"`
	SendFinished   bool `json:"send_finished_sms"`
	PaymentSMS     bool `json:"payment_sms"`
	NewsletterSMS  bool `json:"newsletter_sms"`
	ReviewDecision bool `json:"review_decision_sms"`
}

// defaultNotify is what an account that never chose receives.
var defaultNotify = Notify{TicketAnswer: true, PaymentSMS: true, ReviewDecision: true}

// Settings are the account's panel settings (the low-balance alert and the default
// line have their own services: pkg/wallet Alerts and pkg/line).
type Settings struct {
	Cancel11Default bool       `json:"cancel11_default"`
	Notify          Notify     `json:"notify"`
	UpdatedAt       *time.Time `json:"updated_at"`
}

// Settings returns the account's settings (the defaults when never saved).
func (s *Service) Settings(ctx context.Context, accountID int64) (Settings, error) {
	out := Settings{Cancel11Default: true, Notify: defaultNotify}
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT cancel11_default, notify, updated_at FROM account_settings WHERE account_id = $1`,
		accountID).Scan(&out.Cancel11Default, &raw, &out.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("settings: %w", err)
	}
	if err := json.Unmarshal(raw, &out.Notify); err != nil {
		return out, fmt.Errorf("settings notify: %w", err)
	}
	return out, nil
}

// SaveSettings stores the account's settings, audited with before and after.
func (s *Service) SaveSettings(ctx context.Context, id acl.Identity, in Settings, ip string) (Settings, error) {
	before, err := s.Settings(ctx, id.AccountID)
	if err != nil {
		return before, err
	}
	raw, err := json.Marshal(in.Notify)
	if err != nil {
		return before, fmt.Errorf("settings notify: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO account_settings (account_id, cancel11_default, notify, updated_by)
			VALUES ($1, $2, $3, $4) ON CONFLICT (account_id) DO UPDATE SET cancel11_default = excluded.cancel11_default,
			notify = excluded.notify, updated_by = excluded.updated_by, updated_at = now()`,
			id.AccountID, in.Cancel11Default, raw, id.UserID); err != nil {
			return fmt.Errorf("save settings: %w", err)
		}
		before.UpdatedAt = nil
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.settings",
			TargetType: "settings", IP: ip, Before: before, After: Settings{Cancel11Default: in.Cancel11Default, Notify: in.Notify}})
	})
	if err != nil {
		return before, err
	}
	return s.Settings(ctx, id.AccountID)
}
