// Package colleague owns an account's access roles and colleagues (partners, spec §6):
// roles are sets of permissions; colleagues are invited by SMS, stay pending until
// their first login, and can be deactivated and reactivated. Every query is scoped
// by the caller's account, and a colleague who may manage partners can hand on only
// the permissions they hold themselves, never to their own role or user.
package colleague

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/ratelimit"
)

// Persian messages of this domain.
const (
	MsgRoleNameRequired = "نام نقش را وارد کنید"
	MsgRoleNameTaken    = "نقشی با این نام وجود دارد"
	MsgRoleNameLong     = "نام نقش حداکثر ۶۰ کاراکتر است"
	MsgNoPermissions    = "دست‌کم یک دسترسی برای نقش انتخاب کنید"
	MsgUnknownPerm      = "دسترسی انتخاب‌شده معتبر نیست"
	MsgRoleInUse        = "این نقش به همکارانی داده شده است و حذف نمی‌شود؛ ابتدا نقش آن همکاران را تغییر دهید"
	MsgNoRoleYet        = "ابتدا یک نقش دسترسی بسازید، سپس همکار اضافه کنید"
	MsgRoleRequired     = "نقش دسترسی همکار را انتخاب کنید"
	MsgRoleNotFound     = "نقش انتخاب‌شده یافت نشد"
	MsgEscalation       = "نمی‌توانید دسترسی‌ای بیش از دسترسی خودتان به نقش یا همکاری بدهید"
	MsgOwnRole          = "نقش دسترسی خودتان را نمی‌توانید تغییر دهید یا حذف کنید"
	MsgSelf             = "این تغییر را نمی‌توانید روی حساب کاربری خودتان انجام دهید"
	MsgUsernameTaken    = "این نام کاربری قبلا ثبت شده است"
	MsgNotPending       = "این همکار دعوت را پذیرفته است"
	MsgInviteInvalid    = "نام کاربری، شماره همراه یا کد دعوت اشتباه است یا دعوت منقضی شده است"
	MsgInvitesToday     = "سقف دعوت همکار برای امروز پر شده است؛ فردا دوباره تلاش کنید"
)

// Message codes the panel reacts to.
const (
	CodeRoleInUse   = "role-in-use"
	CodeNoRoleYet   = "no-role"
	CodeEscalation  = "role-escalation"
	CodeInviteWrong = "invite-invalid"
)

// Sessions is what the service needs of pkg/auth: cut a user's sessions everywhere,
// and make every instance re-read a user's permissions.
type Sessions interface {
	RevokeUserSessions(ctx context.Context, userID int64) error
	ForgetUsers(ctx context.Context, userIDs ...int64) error
}

// Service manages roles and colleagues.
type Service struct {
	pool     *pgxpool.Pool
	queue    auth.Enqueuer
	secret   string
	sessions Sessions
	limits   Limits
	// PanelURL is the panel's public origin; the invitation SMS links to its
	// «پذیرش دعوت» page (InviteText).
	PanelURL string
	// OnDeactivate, when set, stops or holds the deferred work a deactivated colleague
	// made (their campaigns stop, their scheduled sends wait) inside the deactivation's
	// transaction, and says what it did for the owner's audit entry.
	OnDeactivate func(ctx context.Context, tx pgx.Tx, accountID, userID int64) (map[string]any, error)
}

// Limits bound the invitation codes: acceptance attempts per address per minute, and
// codes to one mobile per day (shared with the login codes' daily cap).
type Limits struct {
	Limiter        *ratelimit.Limiter
	PerIPPerMin    int
	PerNumberToday int
	// PerAccountToday caps the invitations (new and resent) an account texts per
	// day (0: DefaultInvitesPerDay).
	PerAccountToday int
}

// DefaultInvitesPerDay is the invitations an account may text per day when no cap
// is configured.
const DefaultInvitesPerDay = 20

// New returns the service. secret keys the hash of invitation codes (TOKEN_SECRET).
func New(pool *pgxpool.Pool, queue auth.Enqueuer, secret string, sessions Sessions, limits Limits) *Service {
	return &Service{pool: pool, queue: queue, secret: secret, sessions: sessions, limits: limits}
}

// allow counts one hit of key against limit per window; a nil limiter allows all.
func (s *Service) allow(ctx context.Context, key string, limit int, window time.Duration) error {
	if s.limits.Limiter == nil || limit <= 0 {
		return nil
	}
	ok, retry, err := s.limits.Limiter.Allow(ctx, key, limit, window)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.RateLimit(int(retry.Seconds()) + 1)
	}
	return nil
}

// escalation refuses handing on permissions the caller does not hold.
func escalation() error {
	return apperr.New(apperr.Forbidden, MsgEscalation).WithCode(CodeEscalation)
}

// callerRole is the role the identity acts through (0 for the owner).
func (s *Service) callerRole(ctx context.Context, id acl.Identity) (int64, error) {
	if id.IsOwner {
		return 0, nil
	}
	var roleID *int64
	err := s.pool.QueryRow(ctx, `SELECT role_id FROM users WHERE id = $1 AND account_id = $2`, id.UserID, id.AccountID).Scan(&roleID)
	if err != nil {
		return 0, fmt.Errorf("caller role: %w", err)
	}
	if roleID == nil {
		return 0, nil
	}
	return *roleID, nil
}

// pgCode returns the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// notFound maps "no rows" to apperr.ErrNotFound.
func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.ErrNotFound
	}
	return fmt.Errorf("%s: %w", what, err)
}
