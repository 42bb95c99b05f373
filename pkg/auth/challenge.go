package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth/password"
	"github.com/chapar/chapar/pkg/validate"
)

const codeDigits = 5

// challenge is one pending second step, as read inside a transaction.
type challenge struct {
	id            int64
	userID        int64
	purpose       string
	method        string
	codeHash      []byte
	codeExpiresAt *time.Time
	tries         int
	maxTries      int
	resendAt      time.Time
	sends         int
	expiresAt     time.Time
	consumed      bool
	token         string // only when just created
}

// startChallenge creates a challenge and sends its first code (unless the method is app).
func (s *Service) startChallenge(ctx context.Context, u account.User, purpose, method string, c Client) (challenge, error) {
	token, err := newToken()
	if err != nil {
		return challenge{}, err
	}
	th := hashToken(token)
	ch := challenge{userID: u.ID, purpose: purpose, method: method, maxTries: s.cfg.OTPMaxTries, token: token,
		expiresAt: s.now().Add(s.cfg.OTPLoginTTL)}
	var code string
	if method != "app" {
		if code, err = newCode(codeDigits); err != nil {
			return challenge{}, err
		}
		exp := s.now().Add(s.cfg.OTPTTL)
		ch.codeExpiresAt = &exp
		ch.codeHash = s.hashCode(th, code)
		ch.sends = 1
	}
	ch.resendAt = s.now().Add(s.cfg.OTPResendAfter)
	err = s.pool.QueryRow(ctx, `INSERT INTO challenges (user_id, purpose, token_hash, method, code_hash, code_expires_at,
		max_tries, resend_at, sends, ip, expires_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) RETURNING id`,
		u.ID, purpose, th, method, ch.codeHash, ch.codeExpiresAt, ch.maxTries, ch.resendAt, ch.sends, c.IP, ch.expiresAt).Scan(&ch.id)
	if err != nil {
		return challenge{}, fmt.Errorf("insert challenge: %w", err)
	}
	if code != "" {
		if err := s.sendCode(ctx, u, ch, code); err != nil {
			return challenge{}, err
		}
	}
	return ch, nil
}

// sendCode enqueues the verification message on the critical queue.
func (s *Service) sendCode(ctx context.Context, u account.User, ch challenge, code string) error {
	text := "کد تایید چاپار: " + code + "\nاین کد را در اختیار دیگران قرار ندهید."
	if ch.purpose == "reset" {
		text = "کد بازیابی رمز عبور چاپار: " + code + "\nاگر این درخواست از طرف شما نبوده، آن را نادیده بگیرید."
	}
	task, err := jobs.NewVerification(jobs.Verification{UserID: u.ID, Mobile: u.Mobile, Text: text,
		Voice: ch.method == "voice", Purpose: ch.purpose, ChallengeID: ch.id, Seq: ch.sends})
	if err != nil {
		return err
	}
	if _, err := s.queue.EnqueueContext(ctx, task); err != nil {
		return fmt.Errorf("enqueue verification: %w", err)
	}
	return nil
}

// loadChallenge reads and locks a live challenge of one of the purposes.
func (s *Service) loadChallenge(ctx context.Context, tx pgx.Tx, token string, purposes ...string) (challenge, error) {
	var ch challenge
	var consumedAt *time.Time
	err := tx.QueryRow(ctx, `SELECT id, user_id, purpose, method, code_hash, code_expires_at, tries, max_tries,
		resend_at, sends, expires_at, consumed_at FROM challenges WHERE token_hash = $1 FOR UPDATE`, hashToken(token)).
		Scan(&ch.id, &ch.userID, &ch.purpose, &ch.method, &ch.codeHash, &ch.codeExpiresAt, &ch.tries, &ch.maxTries,
			&ch.resendAt, &ch.sends, &ch.expiresAt, &consumedAt)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && (consumedAt != nil || !slices.Contains(purposes, ch.purpose)) {
		return ch, apperr.New(apperr.Unauthorized, MsgOTPTimeout).WithCode(CodeOTPTimeout)
	}
	if err != nil {
		return ch, fmt.Errorf("load challenge: %w", err)
	}
	if s.now().After(ch.expiresAt) {
		return ch, apperr.New(apperr.Unauthorized, MsgOTPTimeout).WithCode(CodeOTPTimeout)
	}
	if ch.tries >= ch.maxTries {
		return ch, apperr.New(apperr.Unauthorized, MsgOTPLocked).WithCode(CodeOTPLocked)
	}
	return ch, nil
}

// Resend sends a new code for a login or reset challenge, after its countdown.
func (s *Service) Resend(ctx context.Context, token, method string, c Client) (resendAfter int, err error) {
	if method == "" {
		method = "sms"
	}
	if method != "sms" && method != "voice" && method != "app" {
		return 0, apperr.Field("method", MsgMethod)
	}
	if err := s.allow(ctx, "otp:send:ip:"+c.IP, s.cfg.OTPSendPerMin*4); err != nil {
		return 0, err
	}
	var u account.User
	var code string
	var ch challenge
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if ch, err = s.loadChallenge(ctx, tx, token, "login", "reset"); err != nil {
			return err
		}
		if u, err = s.accounts.ByID(ctx, ch.userID); err != nil {
			return err
		}
		if method == "app" {
			if u.TOTPSecret == "" || ch.purpose != "login" {
				return apperr.Field("method", MsgNoApp)
			}
			_, err := tx.Exec(ctx, `UPDATE challenges SET method = 'app' WHERE id = $1`, ch.id)
			return err
		}
		if wait := ch.resendAt.Sub(s.now()); wait > 0 && ch.sends > 0 {
			return apperr.RateLimit(int(wait.Seconds()) + 1).WithCode("otp-wait")
		}
		if err := s.allow(ctx, "otp:send:user:"+strconv.FormatInt(u.ID, 10), s.cfg.OTPSendPerMin); err != nil {
			return err
		}
		if code, err = newCode(codeDigits); err != nil {
			return err
		}
		ch.sends++
		ch.method = method
		_, err := tx.Exec(ctx, `UPDATE challenges SET method = $2, code_hash = $3, code_expires_at = $4, resend_at = $5, sends = $6
			WHERE id = $1`, ch.id, method, s.hashCode(hashToken(token), code), s.now().Add(s.cfg.OTPTTL),
			s.now().Add(s.cfg.OTPResendAfter), ch.sends)
		if err != nil {
			return fmt.Errorf("update challenge: %w", err)
		}
		return nil
	})
	if e, ok := apperr.As(err); ok && e.Code == "otp-wait" {
		e.Message = MsgOTPWait
	}
	if err != nil {
		return 0, err
	}
	if code != "" {
		if err := s.sendCode(ctx, u, ch, code); err != nil {
			return 0, err
		}
	}
	return int(s.cfg.OTPResendAfter.Seconds()), nil
}

// verify checks a code against a challenge, counting wrong tries, and consumes the
// challenge on success.
func (s *Service) verify(ctx context.Context, token, code string, c Client, purposes ...string) (challenge, error) {
	code = strings.TrimSpace(validate.ToLatinDigits(code))
	if code == "" {
		return challenge{}, apperr.Field("code", MsgCodeRequired)
	}
	if err := s.allow(ctx, "otp:confirm:ip:"+c.IP, s.cfg.OTPConfirmPerMin*4); err != nil {
		return challenge{}, err
	}
	var ch challenge
	var verr error
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if ch, err = s.loadChallenge(ctx, tx, token, purposes...); err != nil {
			return err
		}
		if err := s.allow(ctx, "otp:confirm:user:"+strconv.FormatInt(ch.userID, 10), s.cfg.OTPConfirmPerMin); err != nil {
			return err
		}
		ok := false
		switch {
		case ch.method == "app":
			u, err := s.accounts.ByID(ctx, ch.userID)
			if err != nil {
				return err
			}
			ok = u.TOTPSecret != "" && verifyTOTP(u.TOTPSecret, code, s.now())
		case ch.codeExpiresAt == nil || s.now().After(*ch.codeExpiresAt):
			verr = apperr.Field("code", MsgOTPExpired).WithCode("otp-expired")
		default:
			ok = hmacEqual(ch.codeHash, s.hashCode(hashToken(token), code))
		}
		if ok {
			_, err := tx.Exec(ctx, `UPDATE challenges SET consumed_at = now() WHERE id = $1`, ch.id)
			return err
		}
		ch.tries++
		if _, err := tx.Exec(ctx, `UPDATE challenges SET tries = $2 WHERE id = $1`, ch.id, ch.tries); err != nil {
			return fmt.Errorf("count try: %w", err)
		}
		if verr == nil {
			if ch.tries >= ch.maxTries {
				verr = apperr.New(apperr.Unauthorized, MsgOTPLocked).WithCode(CodeOTPLocked)
			} else {
				left := ch.maxTries - ch.tries
				verr = apperr.Field("code", fmt.Sprintf("%s؛ %s تلاش دیگر باقی مانده است", MsgOTPWrong, persianDigits(left))).WithCode("otp-wrong")
			}
		}
		return nil // commit the counted try
	})
	if err != nil {
		return ch, err
	}
	return ch, verr
}

// ConfirmLogin completes the second step and opens a session.
func (s *Service) ConfirmLogin(ctx context.Context, token, code string, c Client) (string, error) {
	ch, err := s.verify(ctx, token, code, c, "login")
	if err != nil {
		return "", err
	}
	u, err := s.accounts.ByID(ctx, ch.userID)
	if err != nil {
		return "", err
	}
	return s.openSession(ctx, u, c, "auth.login")
}

// ResetStart is the answer to a forgot-password request.
type ResetStart struct {
	ResetToken  string `json:"reset_token"`
	ResendAfter int    `json:"resend_after"`
	MobileHint  string `json:"mobile_hint"`
}

// ForgotPassword sends a reset code to the user's mobile.
func (s *Service) ForgotPassword(ctx context.Context, username string, c Client) (ResetStart, error) {
	if strings.TrimSpace(username) == "" {
		return ResetStart{}, apperr.Field("username", "نام کاربری را وارد کنید")
	}
	if err := s.allow(ctx, "forgot:ip:"+c.IP, s.cfg.LoginPerIPPerMin); err != nil {
		return ResetStart{}, err
	}
	u, err := s.accounts.ByUsername(ctx, username)
	if errors.Is(err, apperr.ErrNotFound) {
		return ResetStart{}, apperr.Field("username", MsgUserNotFound)
	}
	if err != nil {
		return ResetStart{}, err
	}
	if err := s.allow(ctx, "otp:send:user:"+strconv.FormatInt(u.ID, 10), s.cfg.OTPSendPerMin); err != nil {
		return ResetStart{}, err
	}
	ch, err := s.startChallenge(ctx, u, "reset", "sms", c)
	if err != nil {
		return ResetStart{}, err
	}
	return ResetStart{ResetToken: ch.token, ResendAfter: int(s.cfg.OTPResendAfter.Seconds()), MobileHint: mobileHint(u.Mobile)}, nil
}

// CheckResetCode verifies a reset code and returns a short-lived change-password token.
func (s *Service) CheckResetCode(ctx context.Context, resetToken, code string, c Client) (string, error) {
	ch, err := s.verify(ctx, resetToken, code, c, "reset")
	if err != nil {
		return "", err
	}
	token, err := newToken()
	if err != nil {
		return "", err
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO challenges (user_id, purpose, token_hash, method, max_tries, ip, expires_at)
		VALUES ($1, 'change_password', $2, 'token', 1, $3, $4)`, ch.userID, hashToken(token), c.IP, s.now().Add(10*time.Minute))
	if err != nil {
		return "", fmt.Errorf("insert change token: %w", err)
	}
	return token, nil
}

// ChangePasswordByToken sets a new password with a change token and revokes every
// session of the user.
func (s *Service) ChangePasswordByToken(ctx context.Context, changeToken, pw, confirm string, c Client) error {
	var rev revocation
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		ch, err := s.loadChallenge(ctx, tx, changeToken, "change_password")
		if err != nil {
			return apperr.New(apperr.Unauthorized, MsgTokenExpired).WithCode(CodeOTPTimeout)
		}
		u, err := s.accounts.ByID(ctx, ch.userID)
		if err != nil {
			return err
		}
		if f := validate.Collect(validate.Password(pw, u.Username), validate.PasswordConfirmation(pw, confirm)); len(f) > 0 {
			return apperr.Fields(f).Err()
		}
		hash, err := password.Hash(pw)
		if err != nil {
			return err
		}
		if err := s.accounts.SetPassword(ctx, tx, u.ID, hash); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE challenges SET consumed_at = now() WHERE id = $1`, ch.id); err != nil {
			return fmt.Errorf("consume change token: %w", err)
		}
		if rev, err = revokeUser(ctx, tx, u.ID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: "auth.password_reset", IP: c.IP})
	})
	if err == nil {
		s.announce(ctx, rev)
	}
	return err
}

func persianDigits(n int) string {
	const fa = "۰۱۲۳۴۵۶۷۸۹"
	var b strings.Builder
	for _, r := range strconv.Itoa(n) {
		b.WriteString(string([]rune(fa)[r-'0']))
	}
	return b.String()
}
