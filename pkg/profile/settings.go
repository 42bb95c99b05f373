package profile

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/audit"
)

// Settings are the account's panel settings (the low-balance alert and the default
// line have their own services: pkg/wallet Alerts and pkg/line; the SMS on a staff
// answer is the support service's, GET/POST /ticket/settings).
//
// Cancel11Default is what the «لغو۱۱» switch starts as on a service line in every
// send form (advertising lines always carry it); off until the owner turns it on.
type Settings struct {
	Cancel11Default bool       `json:"cancel11_default"`
	UpdatedAt       *time.Time `json:"updated_at"`
}

// Settings returns the account's settings (the defaults when never saved).
func (s *Service) Settings(ctx context.Context, accountID int64) (Settings, error) {
	var out Settings
	err := s.pool.QueryRow(ctx, `SELECT cancel11_default, updated_at FROM account_settings WHERE account_id = $1`,
		accountID).Scan(&out.Cancel11Default, &out.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("settings: %w", err)
	}
	return out, nil
}

// SaveSettings stores the account's settings, audited with before and after.
func (s *Service) SaveSettings(ctx context.Context, id acl.Identity, in Settings, ip string) (Settings, error) {
	before, err := s.Settings(ctx, id.AccountID)
	if err != nil {
		return before, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO account_settings (account_id, cancel11_default, updated_by)
			VALUES ($1, $2, $3) ON CONFLICT (account_id) DO UPDATE SET cancel11_default = excluded.cancel11_default,
			updated_by = excluded.updated_by, updated_at = now()`,
			id.AccountID, in.Cancel11Default, id.UserID); err != nil {
			return fmt.Errorf("save settings: %w", err)
		}
		before.UpdatedAt = nil
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.settings",
			TargetType: "settings", IP: ip, Before: before, After: Settings{Cancel11Default: in.Cancel11Default}})
	})
	if err != nil {
		return before, err
	}
	return s.Settings(ctx, id.AccountID)
}
