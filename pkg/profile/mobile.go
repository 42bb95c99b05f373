package profile

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/validate"
)

// MobileKind is the review queue of mobile changes.
const MobileKind = "mobile_change"

// Step-up purposes of a mobile change.
const (
	purposeOld = "mobile_old"
	purposeNew = "mobile_new"
)

// Persian messages of a mobile change.
const (
	MsgSameMobile    = "شماره جدید با شماره فعلی یکسان است"
	MsgMobileOpen    = "یک درخواست تغییر شماره در جریان است؛ تا بررسی آن صبر کنید یا آن را لغو کنید"
	MsgNoChange      = "درخواست تغییر شماره‌ای در انتظار کد یافت نشد؛ از ابتدا شروع کنید"
	MsgChangeDecided = "این درخواست تغییر شماره قبلا بررسی شده است"
)

// StepUps sends and checks the one-time codes of a mobile change (pkg/auth).
type StepUps interface {
	StartStepUpTo(ctx context.Context, userID int64, purpose, mobile string, c auth.Client) (auth.StepUp, error)
	ConfirmStepUp(ctx context.Context, userID int64, purpose, token, code string, c auth.Client) error
}

// MobileChange is a user's request to change their mobile.
type MobileChange struct {
	ID        int64      `json:"id"`
	OldMobile string     `json:"old_mobile"`
	NewMobile string     `json:"new_mobile"`
	Status    string     `json:"status"`
	Reason    string     `json:"reason"`
	CreatedAt time.Time  `json:"created_at"`
	DecidedAt *time.Time `json:"decided_at"`
}

// ChangeStep is the answer of a step that sent a code.
type ChangeStep struct {
	auth.StepUp
	ChangeID int64 `json:"change_id,omitempty"`
}

// RequestChange sends a code to the user's current mobile (step 1).
func (s *Service) RequestChange(ctx context.Context, id acl.Identity, c auth.Client) (ChangeStep, error) {
	if err := s.noOpenChange(ctx, id.UserID); err != nil {
		return ChangeStep{}, err
	}
	st, err := s.Auth.StartStepUpTo(ctx, id.UserID, purposeOld, "", c)
	return ChangeStep{StepUp: st}, err
}

// ConfirmOld checks the current mobile's code and the new number, records the change
// and sends a code to the new number (step 2).
func (s *Service) ConfirmOld(ctx context.Context, id acl.Identity, token, code, newMobile string, c auth.Client) (ChangeStep, error) {
	mobile, ok := validate.NormalizeMobile(newMobile)
	if !ok {
		return ChangeStep{}, apperr.Field("new_mobile", validate.MsgMobile)
	}
	var old string
	if err := s.pool.QueryRow(ctx, `SELECT mobile FROM users WHERE id = $1`, id.UserID).Scan(&old); err != nil {
		return ChangeStep{}, fmt.Errorf("load mobile: %w", err)
	}
	if old == mobile {
		return ChangeStep{}, apperr.Field("new_mobile", MsgSameMobile)
	}
	if err := s.Auth.ConfirmStepUp(ctx, id.UserID, purposeOld, token, code, c); err != nil {
		return ChangeStep{}, err
	}
	st, err := s.Auth.StartStepUpTo(ctx, id.UserID, purposeNew, mobile, c)
	if err != nil {
		return ChangeStep{}, err
	}
	h := sha256.Sum256([]byte(st.OTPToken))
	var changeID int64
	err = s.pool.QueryRow(ctx, `INSERT INTO mobile_changes (account_id, user_id, old_mobile, new_mobile, otp_hash)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, id.AccountID, id.UserID, old, mobile, h[:]).Scan(&changeID)
	if err != nil {
		return ChangeStep{}, openChangeErr(err)
	}
	return ChangeStep{StepUp: st, ChangeID: changeID}, nil
}

// ConfirmNew checks the new mobile's code and puts the change in staff review
// (step 3); the current mobile keeps working until staff approve.
func (s *Service) ConfirmNew(ctx context.Context, id acl.Identity, changeID int64, token, code string, c auth.Client) (MobileChange, error) {
	h := sha256.Sum256([]byte(token))
	var ch MobileChange
	err := s.pool.QueryRow(ctx, `SELECT id, new_mobile FROM mobile_changes
		WHERE id = $1 AND user_id = $2 AND status = 'verifying' AND otp_hash = $3`, changeID, id.UserID, h[:]).
		Scan(&ch.ID, &ch.NewMobile)
	if errors.Is(err, pgx.ErrNoRows) {
		return ch, apperr.New(apperr.Conflict, MsgNoChange).WithCode("mobile-change-missing")
	}
	if err != nil {
		return ch, fmt.Errorf("load mobile change: %w", err)
	}
	if err := s.Auth.ConfirmStepUp(ctx, id.UserID, purposeNew, token, code, c); err != nil {
		return ch, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE mobile_changes SET status = 'pending' WHERE id = $1 AND status = 'verifying'`, ch.ID)
		if err != nil || tag.RowsAffected() == 0 {
			return errors.Join(err, apperr.New(apperr.Conflict, MsgNoChange).WithCode("mobile-change-missing"))
		}
		summary := "تغییر شماره همراه " + id.Username + " به " + persian.Digits("0"+ch.NewMobile[2:])
		if err := review.Submit(ctx, tx, MobileKind, id.AccountID, ch.ID, nil, summary); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.mobile_change_request",
			TargetType: "mobile_change", Target: strconv.FormatInt(ch.ID, 10), IP: c.IP, Details: map[string]any{"new_mobile": ch.NewMobile}})
	})
	if err != nil {
		return ch, err
	}
	return s.CurrentChange(ctx, id)
}

// CurrentChange returns the user's latest mobile change (apperr.ErrNotFound: none).
func (s *Service) CurrentChange(ctx context.Context, id acl.Identity) (MobileChange, error) {
	var ch MobileChange
	err := s.pool.QueryRow(ctx, `SELECT id, old_mobile, new_mobile, status, reason, created_at, decided_at FROM mobile_changes
		WHERE user_id = $1 AND status <> 'cancelled' ORDER BY id DESC LIMIT 1`, id.UserID).
		Scan(&ch.ID, &ch.OldMobile, &ch.NewMobile, &ch.Status, &ch.Reason, &ch.CreatedAt, &ch.DecidedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return ch, apperr.ErrNotFound
	}
	if err != nil {
		return ch, fmt.Errorf("mobile change: %w", err)
	}
	return ch, nil
}

// CancelChange withdraws the user's open change (verifying or waiting for review).
func (s *Service) CancelChange(ctx context.Context, id acl.Identity, ip string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var changeID int64
		err := tx.QueryRow(ctx, `UPDATE mobile_changes SET status = 'cancelled'
			WHERE user_id = $1 AND status IN ('verifying', 'pending') RETURNING id`, id.UserID).Scan(&changeID)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("cancel mobile change: %w", err)
		}
		if err := review.Withdraw(ctx, tx, MobileKind, changeID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.mobile_change_cancel",
			TargetType: "mobile_change", Target: strconv.FormatInt(changeID, 10), IP: ip})
	})
}

// noOpenChange refuses a new change while one waits for review. A change still
// waiting for its new number's code is dropped: starting again replaces it.
func (s *Service) noOpenChange(ctx context.Context, userID int64) error {
	if _, err := s.pool.Exec(ctx, `UPDATE mobile_changes SET status = 'cancelled' WHERE user_id = $1 AND status = 'verifying'`,
		userID); err != nil {
		return fmt.Errorf("drop unverified change: %w", err)
	}
	var open bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM mobile_changes WHERE user_id = $1 AND status = 'pending')`,
		userID).Scan(&open); err != nil {
		return fmt.Errorf("open mobile change: %w", err)
	}
	if open {
		return apperr.New(apperr.Conflict, MsgMobileOpen).WithCode("mobile-change-open")
	}
	return nil
}

func openChangeErr(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.ConstraintName == "mobile_changes_open_key" {
		return apperr.New(apperr.Conflict, MsgMobileOpen).WithCode("mobile-change-open")
	}
	return fmt.Errorf("insert mobile change: %w", err)
}

// MobileQueue is the back office queue of mobile changes (a review.Handler).
func (s *Service) MobileQueue() review.Handler { return mobileQueue{} }

type mobileQueue struct{}

// Kind returns MobileKind, the mobile changes' queue.
func (mobileQueue) Kind() string { return MobileKind }

// Title returns the queue's Persian name in the back office menu.
func (mobileQueue) Title() string { return "تغییر شماره همراه" }

// Decide approves a change (the user's mobile becomes the new number, audited with
// both numbers) or rejects it with the reason shown to the user.
func (mobileQueue) Decide(ctx context.Context, tx pgx.Tx, it review.Item, d review.Decision) (func(context.Context), error) {
	next, err := decideRow(ctx, tx, "mobile_changes", it, d, MsgChangeDecided)
	if err != nil || next != review.Approved {
		return nil, err
	}
	var userID int64
	var oldM, newM string
	if err := tx.QueryRow(ctx, `SELECT user_id, old_mobile, new_mobile FROM mobile_changes WHERE id = $1`, it.SubjectID).
		Scan(&userID, &oldM, &newM); err != nil {
		return nil, fmt.Errorf("approved mobile change: %w", err)
	}
	return nil, switchMobile(ctx, tx, it.AccountID, userID, oldM, newM, d)
}

// switchMobile sets the user's new mobile, audited with both numbers.
func switchMobile(ctx context.Context, tx pgx.Tx, accountID, userID int64, oldM, newM string, d review.Decision) error {
	if _, err := tx.Exec(ctx, `UPDATE users SET mobile = $2, updated_at = now() WHERE id = $1`, userID, newM); err != nil {
		return fmt.Errorf("switch mobile: %w", err)
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: accountID, UserID: d.Staff.UserID, Action: "profile.mobile_change",
		TargetType: "user", Target: strconv.FormatInt(userID, 10), IP: d.IP,
		Before: map[string]any{"mobile": oldM}, After: map[string]any{"mobile": newM},
		Details: map[string]any{"staff": strings.TrimSpace(d.Staff.Username)}})
}
