package colleague

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/plan"
	"github.com/chapar/chapar/pkg/validate"
)

// Colleague statuses: invited and waiting for the first login, active, deactivated.
const (
	StatusPending  = "pending"
	StatusActive   = "active"
	StatusDisabled = "disabled"
)

// Colleague is a user of the account other than its owner.
type Colleague struct {
	ID         int64            `json:"id"`
	Name       string           `json:"name"`
	Username   string           `json:"username"`
	Mobile     string           `json:"mobile"`
	NationalID string           `json:"national_id"`
	RoleID     int64            `json:"role_id"`
	RoleName   string           `json:"role_name"`
	Status     string           `json:"status"`
	Perms      []acl.Permission `json:"permissions"`
	CreatedAt  time.Time        `json:"created_at"`
}

// Input is the colleague form; Username defaults to the mobile (09…).
type Input struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Username   string `json:"username"`
	Mobile     string `json:"mobile"`
	NationalID string `json:"national_id"`
	RoleID     int64  `json:"role_id"`
}

const colleagueColumns = `u.id, u.name, u.username, u.mobile, u.national_id, coalesce(r.id, 0), coalesce(r.name, ''),
	u.status, coalesce(r.permissions, '{}'), u.created_at`

const colleagueFrom = ` FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.account_id = $1 AND NOT u.is_owner`

func scanColleague(row pgx.Row) (Colleague, error) {
	var c Colleague
	var perms []string
	err := row.Scan(&c.ID, &c.Name, &c.Username, &c.Mobile, &c.NationalID, &c.RoleID, &c.RoleName, &c.Status, &perms, &c.CreatedAt)
	c.Perms = make([]acl.Permission, 0, len(perms))
	for _, p := range perms {
		c.Perms = append(c.Perms, acl.Permission(p))
	}
	if strings.HasPrefix(c.Mobile, "98") {
		c.Mobile = "0" + c.Mobile[2:]
	}
	return c, err
}

// List returns a page of the account's colleagues, newest first, and their total.
func (s *Service) List(ctx context.Context, id acl.Identity, p validate.Paging) ([]Colleague, int64, error) {
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*)`+colleagueFrom, id.AccountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count colleagues: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+colleagueColumns+colleagueFrom+` ORDER BY u.id DESC LIMIT $2 OFFSET $3`,
		id.AccountID, p.Limit, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list colleagues: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Colleague, error) { return scanColleague(r) })
	if err != nil {
		return nil, 0, fmt.Errorf("list colleagues: %w", err)
	}
	return out, total, nil
}

// Show loads one colleague of the account.
func (s *Service) Show(ctx context.Context, id acl.Identity, userID int64) (Colleague, error) {
	c, err := scanColleague(s.pool.QueryRow(ctx, `SELECT `+colleagueColumns+colleagueFrom+` AND u.id = $2`, id.AccountID, userID))
	if err != nil {
		return Colleague{}, notFound(err, "show colleague")
	}
	return c, nil
}

// checkInput validates the form; creating also checks mobile and username.
func checkInput(in *Input, creating bool) (mobile string, err error) {
	in.Name, in.Username = strings.TrimSpace(in.Name), strings.TrimSpace(in.Username)
	in.NationalID = validate.NormalizeDigits(strings.TrimSpace(in.NationalID))
	errs := []error{
		validate.InField("name", validate.NotBlank("name", in.Name)),
		validate.InField("national_id", validate.NationalCode(in.NationalID)),
	}
	if in.RoleID <= 0 {
		errs = append(errs, &validate.Error{Field: "role_id", Message: MsgRoleRequired})
	}
	if creating {
		var ok bool
		if mobile, ok = validate.NormalizeMobile(in.Mobile); !ok {
			errs = append(errs, &validate.Error{Field: validate.FieldMobile, Message: validate.MsgMobile})
		} else if in.Username == "" {
			in.Username = "0" + mobile[2:]
		}
		errs = append(errs, account.CheckUsername(in.Username))
	}
	if f := validate.Collect(errs...); len(f) > 0 {
		return "", apperr.Fields(f).Err()
	}
	return mobile, nil
}

// grantable checks that the role is the account's and that the caller holds all of
// its permissions.
func (s *Service) grantable(ctx context.Context, tx pgx.Tx, id acl.Identity, roleID int64) error {
	var perms []string
	err := tx.QueryRow(ctx, `SELECT permissions FROM roles WHERE id = $1 AND account_id = $2 FOR SHARE`, roleID, id.AccountID).Scan(&perms)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.Field("role_id", MsgRoleNotFound)
	}
	if err != nil {
		return fmt.Errorf("role of colleague: %w", err)
	}
	for _, p := range perms {
		if !id.Can(acl.Permission(p)) {
			return escalation()
		}
	}
	return nil
}

// hasRoles refuses adding a colleague to an account without any role.
func (s *Service) hasRoles(ctx context.Context, id acl.Identity) error {
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM roles WHERE account_id = $1)`, id.AccountID).Scan(&exists); err != nil {
		return fmt.Errorf("any role: %w", err)
	}
	if !exists {
		return apperr.New(apperr.Invalid, MsgNoRoleYet).WithCode(CodeNoRoleYet)
	}
	return nil
}

// Update changes a colleague's name, national id and role; a new role applies from
// the colleague's next request.
func (s *Service) Update(ctx context.Context, id acl.Identity, in Input, ip string) (Colleague, error) {
	if _, err := checkInput(&in, false); err != nil {
		return Colleague{}, err
	}
	if err := s.manageable(ctx, id, in.ID); err != nil {
		return Colleague{}, err
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.grantable(ctx, tx, id, in.RoleID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE users SET name = $3, national_id = $4, role_id = $5, updated_at = now()
			WHERE id = $1 AND account_id = $2 AND NOT is_owner`, in.ID, id.AccountID, in.Name, in.NationalID, in.RoleID)
		if err != nil {
			return fmt.Errorf("update colleague: %w", err)
		}
		return s.audit(ctx, tx, id, "partner.update", in.ID, ip, map[string]any{"role_id": in.RoleID})
	})
	if err != nil {
		return Colleague{}, err
	}
	if err := s.sessions.ForgetUsers(ctx, in.ID); err != nil {
		return Colleague{}, err
	}
	return s.Show(ctx, id, in.ID)
}

// manageable checks that the target is a colleague of the caller's account, not the
// caller, and (for a colleague caller) holds no permission the caller lacks.
func (s *Service) manageable(ctx context.Context, id acl.Identity, userID int64) error {
	c, err := s.Show(ctx, id, userID)
	if err != nil {
		return err
	}
	if c.ID == id.UserID {
		return apperr.New(apperr.Forbidden, MsgSelf).WithCode(CodeEscalation)
	}
	if !id.Covers(c.Perms) {
		return escalation()
	}
	return nil
}

// Deactivate disables a colleague: their sessions and API keys stop working at once
// on every API instance, they cannot log in until reactivated, their campaigns stop
// and their scheduled sends wait (OnDeactivate), noted in the owner's audit log.
func (s *Service) Deactivate(ctx context.Context, id acl.Identity, userID int64, ip string) error {
	if err := s.manageable(ctx, id, userID); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE users SET status = 'disabled', updated_at = now()
			WHERE id = $1 AND account_id = $2 AND NOT is_owner`, userID, id.AccountID); err != nil {
			return fmt.Errorf("deactivate colleague: %w", err)
		}
		var held map[string]any
		if s.OnDeactivate != nil {
			var err error
			if held, err = s.OnDeactivate(ctx, tx, id.AccountID, userID); err != nil {
				return err
			}
		}
		return s.audit(ctx, tx, id, "partner.deactivate", userID, ip, held)
	})
	if err != nil {
		return err
	}
	return s.sessions.RevokeUserSessions(ctx, userID)
}

// Activate reactivates a colleague: active again, or pending when they never logged in.
func (s *Service) Activate(ctx context.Context, id acl.Identity, userID int64, ip string) error {
	if err := s.manageable(ctx, id, userID); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// A reactivated colleague takes a place of the plan again.
		if err := plan.CheckLimit(ctx, tx, id.AccountID, plan.Colleagues); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET updated_at = now(),
			status = CASE WHEN EXISTS (SELECT 1 FROM sessions WHERE user_id = $1) THEN 'active' ELSE 'pending' END
			WHERE id = $1 AND account_id = $2 AND NOT is_owner AND status = 'disabled'`, userID, id.AccountID); err != nil {
			return fmt.Errorf("activate colleague: %w", err)
		}
		return s.audit(ctx, tx, id, "partner.activate", userID, ip, nil)
	})
}
