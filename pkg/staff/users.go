package staff

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of staff user management.
const (
	MsgUserStatus = "وضعیت کاربر معتبر نیست"
	MsgSelf       = "نمی‌توانید حساب کاربری خودتان را غیرفعال کنید"
)

// User is one staff user as the back office lists them.
type User struct {
	ID        int64      `json:"id"`
	Username  string     `json:"username"`
	Name      string     `json:"name"`
	Mobile    string     `json:"mobile"`
	Status    string     `json:"status"`
	LastLogin *time.Time `json:"last_login"`
	CreatedAt time.Time  `json:"created_at"`
	// Operations: the user may read the operations page (acl.StaffOperations).
	Operations bool `json:"operations"`
}

// UserInput is the form of a new staff user: an initial password they use with the
// second-step code texted to the mobile (which proves it at the first login).
type UserInput struct {
	Username string `json:"username"`
	Name     string `json:"name"`
	Mobile   string `json:"mobile"`
	Password string `json:"password"`
}

const userSelect = `SELECT u.id, u.username, u.name, u.mobile, u.status,
	(SELECT max(created_at) FROM sessions s WHERE s.user_id = u.id), u.created_at,
	coalesce('` + string(acl.StaffOperations) + `' = ANY(r.permissions), false)
	FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.is_staff`

func scanUser(r pgx.Row) (User, error) {
	var u User
	err := r.Scan(&u.ID, &u.Username, &u.Name, &u.Mobile, &u.Status, &u.LastLogin, &u.CreatedAt, &u.Operations)
	if strings.HasPrefix(u.Mobile, "98") {
		u.Mobile = "0" + u.Mobile[2:]
	}
	return u, err
}

// Users lists a page of the staff users, oldest first, and their total.
func (s *Service) Users(ctx context.Context, page validate.Paging) ([]User, int64, error) {
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM users WHERE is_staff`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count staff users: %w", err)
	}
	rows, err := s.pool.Query(ctx, userSelect+` ORDER BY u.id LIMIT $1 OFFSET $2`, page.Limit, page.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list staff users: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (User, error) { return scanUser(r) })
	if err != nil {
		return nil, 0, fmt.Errorf("list staff users: %w", err)
	}
	return out, total, nil
}

// User loads one staff user.
func (s *Service) User(ctx context.Context, id int64) (User, error) {
	u, err := scanUser(s.pool.QueryRow(ctx, userSelect+` AND u.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return u, apperr.ErrNotFound
	}
	if err != nil {
		return u, fmt.Errorf("load staff user: %w", err)
	}
	return u, nil
}

// CreateUser adds a staff user, audited (staff.user_added) with the staff member
// who added them.
func (s *Service) CreateUser(ctx context.Context, by acl.Identity, in UserInput, ip string) (User, error) {
	in.Username = strings.TrimSpace(in.Username)
	var id int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		id, err = addUser(ctx, tx, NewUser{Username: in.Username, Password: in.Password, Name: in.Name, Mobile: in.Mobile})
		if err != nil {
			return err
		}
		return s.auditUser(ctx, tx, by, "staff.user_added", id, ip, in.Username)
	})
	if err != nil {
		return User{}, err
	}
	return s.User(ctx, id)
}

// SetUserStatus deactivates ("disabled") or reactivates ("active") a staff user,
// audited (staff.user_disabled, staff.user_active). A deactivated user's sessions
// end at once; no one deactivates themselves.
func (s *Service) SetUserStatus(ctx context.Context, by acl.Identity, id int64, status, ip string) (User, error) {
	if status != "active" && status != "disabled" {
		return User{}, apperr.Field("status", MsgUserStatus)
	}
	if status == "disabled" && id == by.UserID {
		return User{}, apperr.New(apperr.Conflict, MsgSelf)
	}
	u, err := s.User(ctx, id)
	if err != nil {
		return u, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE users SET status = $2, updated_at = now() WHERE id = $1 AND is_staff`, id, status); err != nil {
			return fmt.Errorf("set staff user status: %w", err)
		}
		return s.auditUser(ctx, tx, by, "staff.user_"+status, id, ip, u.Username)
	})
	if err != nil {
		return u, err
	}
	if status == "disabled" && s.Revoke != nil {
		if err := s.Revoke(ctx, id); err != nil {
			return u, err
		}
	}
	return s.User(ctx, id)
}

// OperationsRole is the role, in the staff's own account, that grants the
// operations page (acl.StaffOperations); staff hold no other role.
const OperationsRole = "پایش عملیات"

// SetOperations grants or takes back a staff user's operations page, audited
// (staff.user_operations_granted, staff.user_operations_revoked). It takes
// effect within the session cache's lifetime (SESSION_CACHE_TTL, 10 s).
func (s *Service) SetOperations(ctx context.Context, by acl.Identity, id int64, granted bool, ip string) (User, error) {
	u, err := s.User(ctx, id)
	if err != nil {
		return u, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := setOperationsRole(ctx, tx, id, granted); err != nil {
			return err
		}
		action := "staff.user_operations_revoked"
		if granted {
			action = "staff.user_operations_granted"
		}
		return s.auditUser(ctx, tx, by, action, id, ip, u.Username)
	})
	if err != nil {
		return u, err
	}
	return s.User(ctx, id)
}

// GrantOperations gives the staff user username the operations page, unaudited:
// for seeding (`make run`'s staff user); the back office uses SetOperations.
func GrantOperations(ctx context.Context, pool *pgxpool.Pool, username string) error {
	var id int64
	if err := pool.QueryRow(ctx, `SELECT id FROM users WHERE username = $1 AND is_staff`, username).Scan(&id); err != nil {
		return fmt.Errorf("staff user %s: %w", username, err)
	}
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return setOperationsRole(ctx, tx, id, true) })
}

// setOperationsRole gives staff user id the operations role (made in their own
// account the first time), or takes every role away.
func setOperationsRole(ctx context.Context, tx pgx.Tx, id int64, granted bool) error {
	var role *int64
	if granted {
		role = new(int64)
		if err := tx.QueryRow(ctx, `INSERT INTO roles (account_id, name, permissions)
			SELECT account_id, $2, $3 FROM users WHERE id = $1
			ON CONFLICT (account_id, name) DO UPDATE SET permissions = EXCLUDED.permissions RETURNING id`,
			id, OperationsRole, []string{string(acl.StaffOperations)}).Scan(role); err != nil {
			return fmt.Errorf("operations role: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET role_id = $2, updated_at = now() WHERE id = $1 AND is_staff`, id, role); err != nil {
		return fmt.Errorf("set staff user role: %w", err)
	}
	return nil
}

// auditUser records a staff-user change without an account (like content changes).
func (s *Service) auditUser(ctx context.Context, tx pgx.Tx, by acl.Identity, action string, id int64, ip, username string) error {
	return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: action, TargetType: "staff_user",
		Target: strconv.FormatInt(id, 10), IP: ip, Details: map[string]any{"staff": by.Username, "username": username}})
}
