// Package auth owns sessions and the login flow: password check, the two-step login
// (SMS or voice one-time code through the critical queue, or a TOTP authenticator
// app), login with a one-time code alone (codelogin.go), registration's mobile check,
// password reset, one-time external-login codes, session tokens (random, stored
// hashed, cached in an LRU with a short TTL, revocable), device tokens (device.go) and
// the limits and lock-outs on login, codes and sign-up (guard.go).
package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth/password"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/ratelimit"
)

// Persian messages of this domain.
const (
	MsgBadCredentials = "نام کاربری یا رمز عبور اشتباه است"
	MsgDisabled       = "حساب کاربری شما غیرفعال است"
	MsgSuspended      = "حساب شما توسط پشتیبانی تعلیق شده است؛ ورود، ارسال و کلیدهای API تا رفع تعلیق کار نمی‌کنند. برای پیگیری با پشتیبانی تماس بگیرید"
	MsgOTPTimeout     = "زمان ورود به پایان رسیده است؛ لطفا دوباره وارد شوید"
	MsgOTPLocked      = "تعداد تلاش‌های ناموفق بیش از حد مجاز است؛ لطفا دوباره وارد شوید"
	MsgOTPWrong       = "کد تایید اشتباه است"
	MsgOTPExpired     = "کد تایید منقضی شده است؛ کد جدید دریافت کنید"
	MsgOTPWait        = "لطفا تا پایان زمان‌سنج صبر کنید"
	MsgMethod         = "روش ارسال کد معتبر نیست"
	MsgNoApp          = "ورود دومرحله‌ای با اپلیکیشن برای شما فعال نشده است"
	MsgUserNotFound   = "کاربری با این نام کاربری یافت نشد"
	MsgCodeRequired   = "کد تایید را وارد کنید"
	MsgTokenExpired   = "مهلت تغییر رمز عبور به پایان رسیده است؛ دوباره درخواست دهید"

	MsgMobileUnverified  = "شماره همراه این حساب هنوز تایید نشده است؛ ثبت‌نام را با کد پیامک‌شده کامل کنید"
	MsgNumberCap         = "سقف ارسال کد به این شماره برای امروز پر شده است؛ فردا دوباره تلاش کنید"
	MsgSignupLimit       = "تعداد ثبت‌نام از این نشانی بیش از حد مجاز است؛ ساعتی بعد دوباره تلاش کنید"
	MsgResetSent         = "اگر این نام کاربری ثبت شده باشد، کد بازیابی به شماره همراه آن پیامک شد"
	MsgResetLocked       = "به دلیل تلاش‌های ناموفق زیاد، بازیابی رمز عبور این حساب تا ۲۴ ساعت بسته است"
	MsgLoginLocked       = "به دلیل تلاش‌های ناموفق زیاد، ورود به این حساب موقتا بسته است؛ از مرورگری که پیش‌تر با آن وارد شده‌اید همچنان می‌توانید وارد شوید"
	MsgExternalInvalid   = "پیوند ورود نامعتبر است، منقضی شده یا قبلا استفاده شده است"
	MsgTwoStepRequired   = "ورود دومرحله‌ای برای همکاران الزامی است و خاموش نمی‌شود"
	MsgNoticeReset       = "چاپار: رمز عبور حساب شما تغییر کرد و همه نشست‌ها بسته شدند. اگر این کار شما نبوده، فورا با پشتیبانی تماس بگیرید."
	MsgNoticeResetLocked = "چاپار: تلاش‌های ناموفق زیادی برای بازیابی رمز عبور حساب شما انجام شد و بازیابی تا ۲۴ ساعت بسته شد. رمز عبور شما تغییر نکرده است."
)

// Message codes the panel reacts to.
const (
	CodeOTPTimeout = "otp-timeout"
	CodeOTPLocked  = "otp-locked"

	CodeMobileUnverified = "mobile-unverified"
	CodeNumberCap        = "otp-number-cap"
	CodeResetLocked      = "reset-locked"
	CodeLoginLocked      = "login-locked"
	CodeExternalInvalid  = "external-invalid"
	CodeTwoStepRequired  = "two-step-required"
)

// PurposeNotice marks a security notice to the owner among the verification messages.
const PurposeNotice = "notice"

// Enqueuer is the asynq client (a real one in tests too).
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Service runs the login flow and checks session tokens.
type Service struct {
	pool     *pgxpool.Pool
	cfg      config.Config
	accounts *account.Service
	queue    Enqueuer
	limit    *ratelimit.Limiter
	cache    *expirable.LRU[string, acl.Identity]
	sess     sessionState
	now      func() time.Time
}

// New returns the auth service.
func New(pool *pgxpool.Pool, cfg config.Config, accounts *account.Service, queue Enqueuer, limit *ratelimit.Limiter) *Service {
	return &Service{
		pool: pool, cfg: cfg, accounts: accounts, queue: queue, limit: limit,
		cache: expirable.NewLRU[string, acl.Identity](100_000, nil, cfg.SessionCacheTTL),
		sess:  sessionState{ready: make(chan struct{})},
		now:   time.Now,
	}
}

// Client is who is calling: for rate limits, sessions and the audit log.
type Client struct {
	IP        string
	UserAgent string
	// Device is the device token the browser presented with a login, code login or
	// code confirmation (device.go); empty elsewhere.
	Device string
}

// LoginResult is either a session token or a pending second step.
type LoginResult struct {
	Token       string   `json:"token,omitempty"`
	DeviceToken string   `json:"device_token,omitempty"`
	OTPRequired bool     `json:"otp_required,omitempty"`
	LoginToken  string   `json:"login_token,omitempty"`
	Methods     []string `json:"methods,omitempty"`
	Method      string   `json:"method,omitempty"`
	ResendAfter int      `json:"resend_after,omitempty"`
	MobileHint  string   `json:"mobile_hint,omitempty"`
}

// dummyHash equalises the time of a login for an unknown username.
var dummyHash, _ = password.Hash("chapar-timing-equaliser")

// Login checks a customer's password and either opens a session or starts the
// second step. Staff users cannot log in here (see LoginStaff).
func (s *Service) Login(ctx context.Context, username, pw string, c Client) (LoginResult, error) {
	return s.login(ctx, username, pw, c, false)
}

// LoginStaff checks a staff user's password and always starts the second step.
// Customers cannot log in here.
func (s *Service) LoginStaff(ctx context.Context, username, pw string, c Client) (LoginResult, error) {
	return s.login(ctx, username, pw, c, true)
}

func (s *Service) login(ctx context.Context, username, pw string, c Client, staff bool) (LoginResult, error) {
	username = strings.TrimSpace(username)
	fields := apperr.Fields{}
	if username == "" {
		fields.Add("username", "نام کاربری را وارد کنید")
	}
	if pw == "" {
		fields.Add("password", "رمز عبور را وارد کنید")
	}
	if err := fields.Err(); err != nil {
		return LoginResult{}, err
	}
	name := strings.ToLower(username)
	u, err := s.accounts.ByUsername(ctx, username)
	if err != nil && !errors.Is(err, apperr.ErrNotFound) {
		return LoginResult{}, err
	}
	if u.IsStaff != staff {
		u = account.User{} // the other door's users are unknown here
	}
	trusted, err := s.deviceTrusted(ctx, c.Device, u.ID)
	if err != nil {
		return LoginResult{}, err
	}
	if err := s.loginGate(ctx, name, trusted, c); err != nil {
		return LoginResult{}, err
	}
	hash := u.PasswordHash
	if u.ID == 0 {
		hash = dummyHash // an unknown username takes as long as a known one
	}
	if ok, err := password.Verify(hash, pw); u.ID == 0 || err != nil || !ok {
		if err := s.loginFailed(ctx, name, u, trusted, c); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, apperr.New(apperr.Unauthorized, MsgBadCredentials).WithCode("bad-credentials")
	}
	if err := s.loginSucceeded(ctx, name, c); err != nil {
		return LoginResult{}, err
	}
	if !u.MobileVerified {
		return LoginResult{}, apperr.New(apperr.Forbidden, MsgMobileUnverified).WithCode(CodeMobileUnverified)
	}
	if err := usable(u); err != nil {
		return LoginResult{}, err
	}
	if !u.TwoStep && !u.IsStaff {
		o, err := s.openSession(ctx, u, c, audit.AuthLogin)
		return LoginResult{Token: o.Token, DeviceToken: o.DeviceToken}, err
	}
	return s.secondStep(ctx, u, trusted, c)
}

// usable refuses a deactivated user or a suspended account, each with its notice.
func usable(u account.User) error {
	if u.Suspended {
		return apperr.New(apperr.Forbidden, MsgSuspended).WithCode("account-suspended")
	}
	if u.Status == "disabled" {
		return apperr.New(apperr.Forbidden, MsgDisabled).WithCode("account-disabled")
	}
	return nil
}

// secondStep starts the login's second step with the user's method; a trusted
// device's codes come from the number's trusted budget.
func (s *Service) secondStep(ctx context.Context, u account.User, trusted bool, c Client) (LoginResult, error) {
	method := u.TwoStepMethod
	if method == "app" && u.TOTPSecret == "" {
		method = "sms"
	}
	ch, err := s.startChallenge(ctx, u, "login", method, trusted, c)
	if err != nil {
		return LoginResult{}, err
	}
	methods := []string{"sms", "voice"}
	if u.TOTPSecret != "" {
		methods = append(methods, "app")
	}
	return LoginResult{OTPRequired: true, LoginToken: ch.token, Methods: methods, Method: method,
		ResendAfter: int(s.cfg.OTPResendAfter.Seconds()), MobileHint: mobileHint(u.Mobile)}, nil
}

// openSession creates a session of the user's own login and returns its token with
// the browser's device token.
func (s *Service) openSession(ctx context.Context, u account.User, c Client, action string) (Opened, error) {
	return s.openSessionAs(ctx, u, c, action, staffOf{}, true)
}

// ImpersonationTTL caps the life of a session a staff member opened as a customer.
const ImpersonationTTL = time.Hour

// staffOf is the staff member who opens a session as a customer (impersonation);
// zero for the user's own login.
type staffOf struct {
	id       int64
	username string
}

// openSessionAs creates a session that staff (when set) opened as u, audited on u's
// account with the staff member's name; such a session lives ImpersonationTTL at
// most and ends with the staff user (revokeUser). With device the browser's device
// token is remembered in the same transaction.
func (s *Service) openSessionAs(ctx context.Context, u account.User, c Client, action string, staff staffOf, device bool) (Opened, error) {
	token, err := newToken()
	if err != nil {
		return Opened{}, err
	}
	o := Opened{Token: token}
	ttl := s.cfg.SessionTTL
	if staff.id != 0 {
		ttl = min(ttl, ImpersonationTTL)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO sessions (user_id, account_id, token_hash, ip, user_agent, expires_at, impersonated_by,
			impersonator_id) VALUES ($1, $2, $3, $4, $5, $6, $7, nullif($8, 0))`, u.ID, u.AccountID, hashToken(token), c.IP,
			trim(c.UserAgent, 300), s.now().Add(ttl), staff.username, staff.id)
		if err != nil {
			return fmt.Errorf("insert session: %w", err)
		}
		// An invited colleague's first login makes them active (spec §4 Colleague).
		if _, err := tx.Exec(ctx, `UPDATE users SET status = 'active', updated_at = now() WHERE id = $1 AND status = 'pending'`, u.ID); err != nil {
			return fmt.Errorf("activate invited user: %w", err)
		}
		if device {
			if o.DeviceToken, err = s.rememberDevice(ctx, tx, u.ID, c.Device); err != nil {
				return err
			}
		}
		e := audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: action, IP: c.IP}
		if staff.id != 0 {
			e.Details = map[string]any{"staff": staff.username}
		}
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Opened{}, err
	}
	return o, nil
}

// LoginSetting is the branded text of the login page and the «old panel» strip.
type LoginSetting struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	// OldPanelURL is where the «old panel» strip links; empty (the default) hides
	// the strip. Staff set it (SaveOldPanel).
	OldPanelURL string `json:"old_panel_url"`
}

// LoginSetting reads the login page's branded description and the old panel's address.
func (s *Service) LoginSetting(ctx context.Context) (LoginSetting, error) {
	var ls LoginSetting
	err := s.pool.QueryRow(ctx, `SELECT
		coalesce((SELECT value->>'title' FROM settings WHERE key = 'login_setting'), ''),
		coalesce((SELECT value->>'description' FROM settings WHERE key = 'login_setting'), ''),
		coalesce((SELECT value->>'url' FROM settings WHERE key = 'old_panel'), '')`).Scan(&ls.Title, &ls.Description, &ls.OldPanelURL)
	if err != nil {
		return ls, fmt.Errorf("login setting: %w", err)
	}
	return ls, nil
}

func (s *Service) allow(ctx context.Context, key string, perMin int) error {
	ok, retry, err := s.limit.Allow(ctx, key, perMin, time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.RateLimit(int(retry.Seconds()) + 1)
	}
	return nil
}

func mobileHint(m string) string {
	if len(m) != 12 {
		return ""
	}
	return "0" + m[2:5] + "***" + m[8:]
}

func trim(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
