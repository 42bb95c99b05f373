package colleague

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth/password"
	"github.com/chapar/chapar/pkg/plan"
	"github.com/chapar/chapar/pkg/validate"
)

// InviteTTL is how long an invitation code stays valid; the owner can send a new one.
const InviteTTL = 72 * time.Hour

// inviteTries is how many wrong codes an invitation takes before it dies.
const inviteTries = 5

// Create adds a colleague in the pending state and texts them an invitation code
// with which they set their password (AcceptInvite). The account needs a role first.
func (s *Service) Create(ctx context.Context, id acl.Identity, in Input, ip string) (Colleague, error) {
	if err := s.hasRoles(ctx, id); err != nil {
		return Colleague{}, err
	}
	mobile, err := checkInput(&in, true)
	if err != nil {
		return Colleague{}, err
	}
	unusable, err := randomCode(32)
	if err != nil {
		return Colleague{}, err
	}
	hash, err := password.Hash(unusable) // no one knows it: the invitation sets the real one
	if err != nil {
		return Colleague{}, err
	}
	var userID int64
	var task *asynq.Task
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.grantable(ctx, tx, id, in.RoleID); err != nil {
			return err
		}
		if err := plan.CheckLimit(ctx, tx, id.AccountID, plan.Colleagues); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `INSERT INTO users (account_id, username, password_hash, name, mobile, national_id, role_id,
			status, two_step, mobile_verified) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', true, false)
			ON CONFLICT DO NOTHING RETURNING id`,
			id.AccountID, in.Username, hash, in.Name, mobile, in.NationalID, in.RoleID).Scan(&userID)
		if errors.Is(err, pgx.ErrNoRows) {
			e := apperr.Field("username", MsgUsernameTaken)
			e.Kind = apperr.Conflict
			return e
		}
		if err != nil {
			return fmt.Errorf("insert colleague: %w", err)
		}
		t, err := s.invite(ctx, tx, id, userID, mobile)
		if err != nil {
			return err
		}
		task = t
		return s.audit(ctx, tx, id, "partner.create", userID, ip, map[string]any{"role_id": in.RoleID})
	})
	if err != nil {
		return Colleague{}, err
	}
	if err := s.sendInvite(ctx, task); err != nil {
		return Colleague{}, err
	}
	return s.Show(ctx, id, userID)
}

// ResendInvite replaces a pending colleague's invitation with a new code.
func (s *Service) ResendInvite(ctx context.Context, id acl.Identity, userID int64, ip string) error {
	if err := s.manageable(ctx, id, userID); err != nil {
		return err
	}
	c, err := s.Show(ctx, id, userID)
	if err != nil {
		return err
	}
	if c.Status != StatusPending {
		return apperr.New(apperr.Conflict, MsgNotPending)
	}
	mobile, _ := validate.NormalizeMobile(c.Mobile)
	var task *asynq.Task
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		t, err := s.invite(ctx, tx, id, userID, mobile)
		if err != nil {
			return err
		}
		task = t
		return s.audit(ctx, tx, id, "partner.invite", userID, ip, nil)
	})
	if err != nil {
		return err
	}
	return s.sendInvite(ctx, task)
}

// invite retires the user's open invitations and stores a new one; it returns the
// invitation's SMS task, which the caller enqueues once the transaction has committed
// (sendInvite): a worker woken at once must find the new colleague's user row.
func (s *Service) invite(ctx context.Context, tx pgx.Tx, id acl.Identity, userID int64, mobile string) (*asynq.Task, error) {
	if err := s.allowInvite(ctx, id.AccountID); err != nil {
		return nil, err
	}
	if err := s.allow(ctx, "otp:number:"+mobile, s.limits.PerNumberToday, 24*time.Hour); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `UPDATE challenges SET consumed_at = now()
		WHERE user_id = $1 AND purpose = 'invite' AND consumed_at IS NULL`, userID); err != nil {
		return nil, fmt.Errorf("retire invitations: %w", err)
	}
	code, err := randomCode(6)
	if err != nil {
		return nil, err
	}
	token, err := randomCode(40)
	if err != nil {
		return nil, err
	}
	th := sha256.Sum256([]byte(token))
	var chID int64
	err = tx.QueryRow(ctx, `INSERT INTO challenges (user_id, purpose, token_hash, method, code_hash, code_expires_at,
		max_tries, expires_at, issued_by) VALUES ($1, 'invite', $2, 'sms', $3, $4, $5, $4, $6) RETURNING id`,
		userID, th[:], s.codeHash(th[:], code), time.Now().Add(InviteTTL), inviteTries, id.UserID).Scan(&chID)
	if err != nil {
		return nil, fmt.Errorf("insert invitation: %w", err)
	}
	return jobs.NewVerification(jobs.Verification{UserID: userID, Mobile: mobile, Text: InviteText(code, s.PanelURL),
		Purpose: "invite", ChallengeID: chID})
}

// AcceptInvitePath is the panel page where an invited colleague sets a password.
const AcceptInvitePath = "/accept-invite"

// InviteText is the invitation SMS: a fixed platform text with the code and the
// link to the panel's «پذیرش دعوت» page (panelURL + AcceptInvitePath). No text the
// owner chose (the account's name, the username) goes out from the platform's
// line; the colleague accepts with their mobile number and the code.
func InviteText(code, panelURL string) string {
	return "کد دعوت همکاری چاپار: " + code + "\nبا شماره همراه خود و این کد، رمز عبور را در این صفحه تعیین کنید:\n" +
		strings.TrimRight(panelURL, "/") + AcceptInvitePath
}

// allowInvite counts one invitation against the account's daily cap.
func (s *Service) allowInvite(ctx context.Context, accountID int64) error {
	limit := s.limits.PerAccountToday
	if limit <= 0 {
		limit = DefaultInvitesPerDay
	}
	err := s.allow(ctx, "invite:account:"+strconv.FormatInt(accountID, 10), limit, 24*time.Hour)
	if e, ok := apperr.As(err); ok && e.Kind == apperr.RateLimited {
		return &apperr.Error{Kind: apperr.RateLimited, Message: MsgInvitesToday, Code: "invite-daily-cap", RetryAfter: e.RetryAfter}
	}
	return err
}

// sendInvite queues a committed invitation's SMS. Should Redis refuse it, the
// request fails, but the colleague is saved as pending: «ارسال دوباره دعوت» on
// their page (ResendInvite) texts a new code.
func (s *Service) sendInvite(ctx context.Context, task *asynq.Task) error {
	if _, err := s.queue.EnqueueContext(ctx, task); err != nil {
		return fmt.Errorf("enqueue invitation: %w", err)
	}
	return nil
}

// AcceptInput is the invitation form of the colleague.
type AcceptInput struct {
	Username             string `json:"username"`
	Code                 string `json:"code"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
}

// AcceptInvite sets a pending colleague's password with the texted code and proves
// their mobile; their first login then makes them active. A wrong code counts
// against the invitation, which dies after a few.
func (s *Service) AcceptInvite(ctx context.Context, in AcceptInput, ip string) error {
	in.Username = strings.TrimSpace(in.Username)
	in.Code = validate.NormalizeDigits(strings.TrimSpace(in.Code))
	errs := validate.Collect(validate.InField("username", validate.NotBlank("username", in.Username)),
		validate.InField("code", validate.NotBlank("code", in.Code)),
		validate.Password(in.Password, in.Username), validate.PasswordConfirmation(in.Password, in.PasswordConfirmation))
	if len(errs) > 0 {
		return apperr.Fields(errs).Err()
	}
	if err := s.allow(ctx, "invite:ip:"+ip, s.limits.PerIPPerMin, time.Minute); err != nil {
		return err
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return err
	}
	var accepted bool
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		invites, err := openInvites(ctx, tx, in.Username)
		if err != nil || len(invites) == 0 {
			return err
		}
		for _, iv := range invites {
			if hmac.Equal(iv.codeHash, s.codeHash(iv.tokenHash, in.Code)) {
				accepted = true
				return s.acceptTx(ctx, tx, iv.userID, iv.accountID, iv.id, hash, ip)
			}
		}
		_, err = tx.Exec(ctx, `UPDATE challenges SET tries = tries + 1,
			consumed_at = CASE WHEN tries + 1 >= max_tries THEN now() END WHERE id = $1`, invites[0].id)
		return err
	})
	if err != nil {
		return err
	}
	if !accepted {
		return apperr.New(apperr.Invalid, MsgInviteInvalid).WithCode(CodeInviteWrong)
	}
	return nil
}

// openInvite is an open invitation of a pending colleague.
type openInvite struct {
	id, userID, accountID int64
	tokenHash, codeHash   []byte
}

// openInvites locks the open invitations a login names, newest first: the
// colleague's username or mobile number (the invitation SMS names neither; one
// mobile may be invited by several accounts, and the code tells them apart).
func openInvites(ctx context.Context, tx pgx.Tx, login string) ([]openInvite, error) {
	mobile, _ := validate.NormalizeMobile(login)
	rows, err := tx.Query(ctx, `SELECT c.id, u.id, u.account_id, c.token_hash, c.code_hash FROM users u
		JOIN challenges c ON c.user_id = u.id AND c.purpose = 'invite' AND c.consumed_at IS NULL AND c.expires_at > now()
		WHERE (lower(u.username) = lower($1) OR ($2 <> '' AND u.mobile = $2)) AND u.status = 'pending' AND NOT u.is_owner
		ORDER BY c.id DESC LIMIT 10 FOR UPDATE OF c`, login, mobile)
	if err != nil {
		return nil, fmt.Errorf("load invitations: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (openInvite, error) {
		var iv openInvite
		return iv, r.Scan(&iv.id, &iv.userID, &iv.accountID, &iv.tokenHash, &iv.codeHash)
	})
	if err != nil {
		return nil, fmt.Errorf("load invitations: %w", err)
	}
	return out, nil
}

func (s *Service) acceptTx(ctx context.Context, tx pgx.Tx, userID, accountID, chID int64, hash, ip string) error {
	if _, err := tx.Exec(ctx, `UPDATE challenges SET consumed_at = now() WHERE id = $1`, chID); err != nil {
		return fmt.Errorf("consume invitation: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2, mobile_verified = true, updated_at = now()
		WHERE id = $1`, userID, hash); err != nil {
		return fmt.Errorf("accept invitation: %w", err)
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: accountID, UserID: userID, Action: "partner.invite_accepted",
		Target: strconv.FormatInt(userID, 10), IP: ip})
}

// codeHash keys an invitation code's hash with the server secret and its invitation.
func (s *Service) codeHash(tokenHash []byte, code string) []byte {
	m := hmac.New(sha256.New, []byte(s.secret))
	m.Write(tokenHash)
	m.Write([]byte{0})
	m.Write([]byte(code))
	return m.Sum(nil)
}

// randomCode returns n random decimal digits.
func randomCode(n int) (string, error) {
	var b strings.Builder
	for range n {
		d, err := rand.Int(rand.Reader, big.NewInt(10))
		if err != nil {
			return "", fmt.Errorf("random code: %w", err)
		}
		b.WriteByte(byte('0' + d.Int64()))
	}
	return b.String(), nil
}
