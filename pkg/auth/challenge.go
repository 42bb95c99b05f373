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
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// codeDigits is the length of SMS and voice codes (a million possibilities).
const codeDigits = 6

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
	subject       string // the name it was asked for: the username lower-cased, or a code login's mobile
	staff         string // the staff username that issued an external-login code
	staffID       int64  // and their user id
	trusted       bool   // started by a trusted device or a signed-in session of the user
	token         string // only when just created
}

// startChallenge creates a challenge and sends its first code (unless the method is
// app). A code to a number that had its day's codes (of the trusted budget when
// trusted) fails with CodeNumberCap before anything is written.
func (s *Service) startChallenge(ctx context.Context, u account.User, purpose, method string, trusted bool, c Client) (challenge, error) {
	return s.startFor(ctx, u, challenge{userID: u.ID, purpose: purpose, method: method, subject: strings.ToLower(u.Username),
		trusted: trusted}, c)
}

// startFor is startChallenge for a challenge asked under its own subject.
func (s *Service) startFor(ctx context.Context, u account.User, ch challenge, c Client) (challenge, error) {
	var code string
	if ch.method != "app" {
		if err := s.capNumber(ctx, u.Mobile, ch.trusted); err != nil {
			return challenge{}, err
		}
		var err error
		if code, err = newCode(codeDigits); err != nil {
			return challenge{}, err
		}
	}
	ch, err := s.insertChallenge(ctx, ch, code, c)
	if err != nil {
		return challenge{}, err
	}
	if code != "" {
		if err := s.sendCode(ctx, u, ch, code); err != nil {
			return challenge{}, err
		}
	}
	return ch, nil
}

// insertChallenge stores a new challenge. A code is stored as its keyed hash; a decoy
// (no user, no code) gets a random hash that no code matches.
func (s *Service) insertChallenge(ctx context.Context, ch challenge, code string, c Client) (challenge, error) {
	token, err := newToken()
	if err != nil {
		return challenge{}, err
	}
	th := hashToken(token)
	ch.token, ch.maxTries = token, s.cfg.OTPMaxTries
	ch.expiresAt = s.now().Add(s.challengeTTL(ch.purpose))
	if ch.method != "app" {
		exp := s.now().Add(s.cfg.OTPTTL)
		ch.codeExpiresAt, ch.codeHash, ch.sends = &exp, s.hashCode(th, code), 1
		if code == "" {
			ch.codeHash = hashToken(token + ":decoy")
		}
	}
	ch.resendAt = s.now().Add(s.cfg.OTPResendAfter)
	err = s.pool.QueryRow(ctx, `INSERT INTO challenges (user_id, purpose, token_hash, method, code_hash, code_expires_at,
		max_tries, resend_at, sends, ip, expires_at, subject, trusted) VALUES (nullif($1, 0),$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)
		RETURNING id`,
		ch.userID, ch.purpose, th, ch.method, ch.codeHash, ch.codeExpiresAt, ch.maxTries, ch.resendAt, ch.sends, c.IP,
		ch.expiresAt, ch.subject, ch.trusted).Scan(&ch.id)
	if err != nil {
		return challenge{}, fmt.Errorf("insert challenge: %w", err)
	}
	return ch, nil
}

// challengeTTL is how long a challenge of a purpose stays open.
func (s *Service) challengeTTL(purpose string) time.Duration {
	if purpose == "register" {
		return account.PendingRegistrationTTL
	}
	return s.cfg.OTPLoginTTL
}

// capNumber counts one code to a mobile against its daily cap (all purposes). Codes a
// trusted device or a signed-in session of the user asks for have a budget of their
// own, which a stranger cannot drain.
func (s *Service) capNumber(ctx context.Context, mobile string, trusted bool) error {
	ok, retry, err := s.limit.Allow(ctx, budgetKey("otp:number:", mobile, trusted), s.cfg.OTPPerNumberPerDay, 24*time.Hour)
	if err != nil {
		return err
	}
	if !ok {
		return numberCapped(retry, nil)
	}
	return nil
}

// sendCode enqueues the verification message on the critical queue.
func (s *Service) sendCode(ctx context.Context, u account.User, ch challenge, code string) error {
	text := "کد تایید چاپار: " + code + "\nاین کد را در اختیار دیگران قرار ندهید."
	switch ch.purpose {
	case "register":
		text = "کد تایید شماره همراه برای ثبت‌نام در چاپار: " + code + "\nاگر ثبت‌نام نکرده‌اید، آن را نادیده بگیرید."
	case "reset":
		text = "کد بازیابی رمز عبور چاپار: " + code + "\nاگر این درخواست از طرف شما نبوده، آن را نادیده بگیرید."
	case "login_code":
		text = "رمز یکبار مصرف ورود به چاپار: " + code + "\nاین رمز را در اختیار دیگران قرار ندهید."
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
	err := tx.QueryRow(ctx, `SELECT id, coalesce(user_id, 0), purpose, method, code_hash, code_expires_at, tries, max_tries,
		resend_at, sends, expires_at, consumed_at, subject, trusted,
		coalesce((SELECT username FROM users WHERE id = issued_by AND is_staff), ''),
		coalesce((SELECT id FROM users WHERE id = issued_by AND is_staff), 0)
		FROM challenges WHERE token_hash = $1 FOR UPDATE`, hashToken(token)).
		Scan(&ch.id, &ch.userID, &ch.purpose, &ch.method, &ch.codeHash, &ch.codeExpiresAt, &ch.tries, &ch.maxTries,
			&ch.resendAt, &ch.sends, &ch.expiresAt, &consumedAt, &ch.subject, &ch.trusted, &ch.staff, &ch.staffID)
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

// Resend sends a new code for a login, code login, reset or registration challenge,
// after its countdown. Reset and code-login challenges answer alike whether their user
// exists or not.
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
		if ch, err = s.loadChallenge(ctx, tx, token, "login", "login_code", "reset", "register"); err != nil {
			return err
		}
		if ch.userID != 0 {
			if u, err = s.accounts.ByID(ctx, ch.userID); err != nil {
				return err
			}
		}
		if method == "app" {
			if u.TOTPSecret == "" || ch.purpose != "login" {
				return apperr.Field("method", MsgNoApp)
			}
			_, err := tx.Exec(ctx, `UPDATE challenges SET method = 'app' WHERE id = $1`, ch.id)
			return err
		}
		code, err = s.renewCode(ctx, tx, u, &ch, token, method)
		return err
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

// renewCode replaces the challenge's code after its countdown and returns the code to
// send: none for a decoy, nor for a reset or code login whose number had its day's
// codes (they answer alike either way).
func (s *Service) renewCode(ctx context.Context, tx pgx.Tx, u account.User, ch *challenge, token, method string) (string, error) {
	if wait := ch.resendAt.Sub(s.now()); wait > 0 && ch.sends > 0 {
		return "", apperr.RateLimit(int(wait.Seconds()) + 1).WithCode("otp-wait")
	}
	if err := s.allow(ctx, budgetKey("otp:send:subject:", ch.subject, ch.trusted), s.cfg.OTPSendPerMin); err != nil {
		return "", err
	}
	var code string
	if ch.userID != 0 {
		err := s.capNumber(ctx, u.Mobile, ch.trusted)
		if e, ok := apperr.As(err); ok && e.Code == CodeNumberCap && (ch.purpose == "reset" || ch.purpose == "login_code") {
			err = nil
		} else if err == nil {
			code, err = newCode(codeDigits)
		}
		if err != nil {
			return "", err
		}
	}
	hash := s.hashCode(hashToken(token), code)
	if code == "" {
		hash = hashToken(token + ":decoy")
	}
	ch.sends++
	ch.method = method
	_, err := tx.Exec(ctx, `UPDATE challenges SET method = $2, code_hash = $3, code_expires_at = $4, resend_at = $5, sends = $6
		WHERE id = $1`, ch.id, method, hash, s.now().Add(s.cfg.OTPTTL), s.now().Add(s.cfg.OTPResendAfter), ch.sends)
	if err != nil {
		return "", fmt.Errorf("update challenge: %w", err)
	}
	return code, nil
}

// verify checks a code against a challenge, counting wrong tries, and consumes the
// challenge on success. Reset codes also count against the day's lock-out of the
// username and of its mobile; login codes against the name's login lock-out.
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
		u, trusted, err := s.challenger(ctx, ch, c)
		if err != nil {
			return err
		}
		if err := s.codeGate(ctx, ch, u, trusted, c); err != nil {
			return err
		}
		ok, expired := s.matchCode(ch, u, token, code)
		if ok {
			_, err := tx.Exec(ctx, `UPDATE challenges SET consumed_at = now() WHERE id = $1`, ch.id)
			return err
		}
		if err := s.countWrongTry(ctx, tx, &ch, u, expired, trusted, c); err != nil {
			return err
		}
		verr = wrongAnswer(ch, expired)
		return nil // commit the counted try
	})
	if err != nil {
		return ch, err
	}
	return ch, verr
}

// challenger loads the challenge's user (none for a decoy) and whether the caller is
// trusted for it: the challenge was started trusted, or the caller presents a live
// device token of the user.
func (s *Service) challenger(ctx context.Context, ch challenge, c Client) (account.User, bool, error) {
	if ch.userID == 0 {
		return account.User{}, false, nil
	}
	u, err := s.accounts.ByID(ctx, ch.userID)
	if err != nil || ch.trusted {
		return u, ch.trusted, err
	}
	trusted, err := s.deviceTrusted(ctx, c.Device, u.ID)
	return u, trusted, err
}

// codeGate runs before a code is compared: the subject's confirmations a minute (a
// budget of their own for a trusted caller), the day's reset lock-out, and the login
// lock-out of an untrusted client.
func (s *Service) codeGate(ctx context.Context, ch challenge, u account.User, trusted bool, c Client) error {
	if err := s.allow(ctx, budgetKey("otp:confirm:subject:", ch.subject, trusted), s.cfg.OTPConfirmPerMin); err != nil {
		return err
	}
	switch ch.purpose {
	case "reset":
		return s.resetLocked(ctx, ch.subject, u.Mobile)
	case "login", "login_code":
		return s.nameLocked(ctx, ch.subject, trusted, c)
	}
	return nil
}

// budgetKey is a rate-limit key of a subject (a username or a mobile): trusted callers
// count apart from everyone else.
func budgetKey(prefix, subject string, trusted bool) string {
	if trusted {
		return prefix + "trusted:" + subject
	}
	return prefix + subject
}

// matchCode compares a code with the challenge's (or the authenticator's).
func (s *Service) matchCode(ch challenge, u account.User, token, code string) (ok, expired bool) {
	switch {
	case ch.method == "app":
		return u.TOTPSecret != "" && verifyTOTP(u.TOTPSecret, code, s.now()), false
	case ch.codeExpiresAt == nil || s.now().After(*ch.codeExpiresAt):
		return false, true
	default:
		return hmacEqual(ch.codeHash, s.hashCode(hashToken(token), code)), false
	}
}

// countWrongTry records a wrong (or expired) code on the challenge and, for a reset,
// against the day's lock-out; for a login, against the name's login lock-out.
func (s *Service) countWrongTry(ctx context.Context, tx pgx.Tx, ch *challenge, u account.User, expired, trusted bool, c Client) error {
	ch.tries++
	if _, err := tx.Exec(ctx, `UPDATE challenges SET tries = $2 WHERE id = $1`, ch.id, ch.tries); err != nil {
		return fmt.Errorf("count try: %w", err)
	}
	switch {
	case expired:
		return nil
	case ch.purpose == "reset":
		return s.countResetFailure(ctx, *ch, u, c)
	case ch.purpose == "login" || ch.purpose == "login_code":
		return s.loginFailed(ctx, ch.subject, u, trusted, c)
	}
	return nil
}

// wrongAnswer is the answer to a wrong or expired code.
func wrongAnswer(ch challenge, expired bool) error {
	switch {
	case expired:
		return apperr.Field("code", MsgOTPExpired).WithCode("otp-expired")
	case ch.tries >= ch.maxTries:
		return apperr.New(apperr.Unauthorized, MsgOTPLocked).WithCode(CodeOTPLocked)
	default:
		left := ch.maxTries - ch.tries
		return apperr.Field("code", fmt.Sprintf("%s؛ %s تلاش دیگر باقی مانده است", MsgOTPWrong, persian.Digits(strconv.Itoa(left)))).WithCode("otp-wrong")
	}
}

// ConfirmLogin completes a login's second step or a code login and opens a session;
// the answer carries the browser's device token. A code login whose user has since
// become unfit for it (two-step login turned on) starts again.
func (s *Service) ConfirmLogin(ctx context.Context, token, code string, c Client) (Opened, error) {
	ch, err := s.verify(ctx, token, code, c, "login", "login_code")
	if err != nil {
		return Opened{}, err
	}
	u, err := s.accounts.ByID(ctx, ch.userID)
	if err != nil {
		return Opened{}, err
	}
	action := audit.AuthLogin
	if ch.purpose == "login_code" {
		if codeLoginClosed(u) != "" {
			return Opened{}, apperr.New(apperr.Unauthorized, MsgOTPTimeout).WithCode(CodeOTPTimeout)
		}
		action = audit.AuthLoginCode
	}
	if err := usable(u); err != nil {
		return Opened{}, err
	}
	if err := s.loginSucceeded(ctx, ch.subject, c); err != nil {
		return Opened{}, err
	}
	return s.openSession(ctx, u, c, action)
}

// ResetStart is the answer to a forgot-password request: the same for every username,
// registered or not, and without any digit of the mobile.
type ResetStart struct {
	ResetToken  string `json:"reset_token"`
	ResendAfter int    `json:"resend_after"`
	Message     string `json:"message"`
}

// ForgotPassword sends a reset code to the user's mobile. An unknown username, or one
// whose mobile is unproven or had its day's codes, gets a decoy challenge that answers
// exactly like a real one and sends nothing.
func (s *Service) ForgotPassword(ctx context.Context, username string, c Client) (ResetStart, error) {
	name := strings.ToLower(strings.TrimSpace(username))
	if name == "" {
		return ResetStart{}, apperr.Field("username", "نام کاربری را وارد کنید")
	}
	if err := s.allow(ctx, "forgot:ip:"+c.IP, s.cfg.LoginPerIPPerMin); err != nil {
		return ResetStart{}, err
	}
	if err := s.allow(ctx, "otp:send:subject:"+name, s.cfg.OTPSendPerMin); err != nil {
		return ResetStart{}, err
	}
	u, err := s.accounts.ByUsername(ctx, name)
	if err != nil && !errors.Is(err, apperr.ErrNotFound) {
		return ResetStart{}, err
	}
	if err := s.resetLocked(ctx, name, u.Mobile); err != nil {
		return ResetStart{}, err
	}
	var ch challenge
	if u.ID != 0 && u.MobileVerified {
		ch, err = s.startChallenge(ctx, u, "reset", "sms", false, c)
		if e, ok := apperr.As(err); ok && e.Code == CodeNumberCap {
			u.ID = 0
		} else if err != nil {
			return ResetStart{}, err
		}
	}
	if u.ID == 0 || !u.MobileVerified {
		if ch, err = s.insertChallenge(ctx, challenge{purpose: "reset", method: "sms", subject: name}, "", c); err != nil {
			return ResetStart{}, err
		}
	}
	return ResetStart{ResetToken: ch.token, ResendAfter: int(s.cfg.OTPResendAfter.Seconds()), Message: MsgResetSent}, nil
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

// ChangePasswordByToken sets a new password with a change token, revokes every
// session of the user and tells the owner by SMS.
func (s *Service) ChangePasswordByToken(ctx context.Context, changeToken, pw, confirm string, c Client) error {
	var u account.User
	var ch challenge
	var rev revocation
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		ch, err = s.loadChallenge(ctx, tx, changeToken, "change_password")
		if err != nil {
			return apperr.New(apperr.Unauthorized, MsgTokenExpired).WithCode(CodeOTPTimeout)
		}
		u, err = s.accounts.ByID(ctx, ch.userID)
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
		devices, err := forgetDevices(ctx, tx, u.ID)
		if err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: "auth.password_reset", IP: c.IP,
			Details: map[string]any{"sessions_closed": len(rev.Sessions), "devices_forgotten": devices}})
	})
	if err != nil {
		return err
	}
	s.announce(ctx, rev)
	return s.notify(ctx, u, ch.id, seqResetNotice, MsgNoticeReset)
}
