package colleague

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Role is an access role: a named set of permissions.
type Role struct {
	ID          int64            `json:"id"`
	Name        string           `json:"name"`
	Permissions []acl.Permission `json:"permissions"`
	// Colleagues is how many colleagues hold the role.
	Colleagues int       `json:"colleagues"`
	CreatedAt  time.Time `json:"created_at"`
}

// RoleInput is the role form.
type RoleInput struct {
	ID          int64            `json:"id"`
	Name        string           `json:"name"`
	Permissions []acl.Permission `json:"permissions"`
}

const roleColumns = `r.id, r.name, r.permissions, r.created_at,
	(SELECT count(*) FROM users u WHERE u.role_id = r.id)`

func scanRole(row pgx.Row) (Role, error) {
	var r Role
	var perms []string
	err := row.Scan(&r.ID, &r.Name, &perms, &r.CreatedAt, &r.Colleagues)
	r.Permissions = make([]acl.Permission, 0, len(perms))
	for _, p := range perms {
		r.Permissions = append(r.Permissions, acl.Permission(p))
	}
	return r, err
}

// Roles lists a page of the account's roles, newest first, and their total.
func (s *Service) Roles(ctx context.Context, id acl.Identity, p validate.Paging) ([]Role, int64, error) {
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM roles WHERE account_id = $1`, id.AccountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count roles: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+roleColumns+` FROM roles r WHERE r.account_id = $1
		ORDER BY r.id DESC LIMIT $2 OFFSET $3`, id.AccountID, p.Limit, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list roles: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Role, error) { return scanRole(r) })
	if err != nil {
		return nil, 0, fmt.Errorf("list roles: %w", err)
	}
	return out, total, nil
}

// Role loads one role of the account.
func (s *Service) Role(ctx context.Context, id acl.Identity, roleID int64) (Role, error) {
	r, err := scanRole(s.pool.QueryRow(ctx, `SELECT `+roleColumns+` FROM roles r WHERE r.id = $1 AND r.account_id = $2`,
		roleID, id.AccountID))
	if err != nil {
		return Role{}, notFound(err, "show role")
	}
	return r, nil
}

// checkRole validates the form and cleans its permissions (known, unique, in the
// order of acl.All). A colleague may only grant what they hold.
func checkRole(id acl.Identity, in *RoleInput) error {
	in.Name = strings.TrimSpace(in.Name)
	f := apperr.Fields{}
	switch {
	case in.Name == "":
		f.Add("name", MsgRoleNameRequired)
	case utf8.RuneCountInString(in.Name) > 60:
		f.Add("name", MsgRoleNameLong)
	}
	var clean []acl.Permission
	for _, p := range acl.All {
		if slices.Contains(in.Permissions, p) {
			clean = append(clean, p)
		}
	}
	if len(clean) != len(slices.Compact(slices.Sorted(slices.Values(in.Permissions)))) {
		f.Add("permissions", MsgUnknownPerm)
	} else if len(clean) == 0 {
		f.Add("permissions", MsgNoPermissions)
	}
	if err := f.Err(); err != nil {
		return err
	}
	in.Permissions = clean
	if !id.Covers(clean) {
		return escalation()
	}
	return nil
}

// CreateRole adds a role to the account.
func (s *Service) CreateRole(ctx context.Context, id acl.Identity, in RoleInput, ip string) (Role, error) {
	if err := checkRole(id, &in); err != nil {
		return Role{}, err
	}
	var roleID int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO roles (account_id, name, permissions) VALUES ($1, $2, $3) RETURNING id`,
			id.AccountID, in.Name, in.Permissions).Scan(&roleID)
		if err != nil {
			return roleWriteErr(err)
		}
		return s.audit(ctx, tx, id, "partner.role_create", roleID, ip, map[string]any{"name": in.Name, "permissions": in.Permissions})
	})
	if err != nil {
		return Role{}, err
	}
	return s.Role(ctx, id, roleID)
}

// UpdateRole renames a role and replaces its permissions; its colleagues get the new
// permissions from their next request on every instance.
func (s *Service) UpdateRole(ctx context.Context, id acl.Identity, in RoleInput, ip string) (Role, error) {
	if err := checkRole(id, &in); err != nil {
		return Role{}, err
	}
	if err := s.notOwnRole(ctx, id, in.ID); err != nil {
		return Role{}, err
	}
	var users []int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE roles SET name = $3, permissions = $4 WHERE id = $1 AND account_id = $2`,
			in.ID, id.AccountID, in.Name, in.Permissions)
		if err != nil {
			return roleWriteErr(err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound
		}
		rows, err := tx.Query(ctx, `SELECT id FROM users WHERE role_id = $1`, in.ID)
		if users, err = collectIDs(rows, err); err != nil {
			return err
		}
		return s.audit(ctx, tx, id, "partner.role_update", in.ID, ip, map[string]any{"name": in.Name, "permissions": in.Permissions})
	})
	if err != nil {
		return Role{}, err
	}
	if len(users) > 0 {
		if err := s.sessions.ForgetUsers(ctx, users...); err != nil {
			return Role{}, err
		}
	}
	return s.Role(ctx, id, in.ID)
}

// CopyRole makes a copy of a role named «کپی …».
func (s *Service) CopyRole(ctx context.Context, id acl.Identity, roleID int64, ip string) (Role, error) {
	src, err := s.Role(ctx, id, roleID)
	if err != nil {
		return Role{}, err
	}
	name := "کپی " + src.Name
	for n := 2; ; n++ {
		var taken bool
		err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM roles WHERE account_id = $1 AND name = $2)`, id.AccountID, name).Scan(&taken)
		if err != nil {
			return Role{}, fmt.Errorf("copy role name: %w", err)
		}
		if !taken {
			break
		}
		name = "کپی " + src.Name + " " + persianNumber(n)
	}
	return s.CreateRole(ctx, id, RoleInput{Name: name, Permissions: src.Permissions}, ip)
}

// DeleteRole removes a role no colleague holds.
func (s *Service) DeleteRole(ctx context.Context, id acl.Identity, roleID int64, ip string) error {
	if err := s.notOwnRole(ctx, id, roleID); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM roles WHERE id = $1 AND account_id = $2`, roleID, id.AccountID)
		if pgCode(err) == "23503" { // users.role_id still points at it
			return apperr.New(apperr.Conflict, MsgRoleInUse).WithCode(CodeRoleInUse)
		}
		if err != nil {
			return fmt.Errorf("delete role: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound
		}
		return s.audit(ctx, tx, id, "partner.role_delete", roleID, ip, nil)
	})
}

// notOwnRole refuses a colleague changing the role they act through, or a role
// that grants anything they do not hold themselves (rewriting it would take power
// from, or act on, colleagues broader than they are).
func (s *Service) notOwnRole(ctx context.Context, id acl.Identity, roleID int64) error {
	own, err := s.callerRole(ctx, id)
	if err != nil {
		return err
	}
	if own != 0 && own == roleID {
		return apperr.New(apperr.Forbidden, MsgOwnRole).WithCode(CodeEscalation)
	}
	if id.IsOwner {
		return nil
	}
	r, err := s.Role(ctx, id, roleID)
	if err != nil {
		return err
	}
	if !id.Covers(r.Permissions) {
		return escalation()
	}
	return nil
}

func roleWriteErr(err error) error {
	if pgCode(err) == "23505" {
		e := apperr.Field("name", MsgRoleNameTaken)
		e.Kind = apperr.Conflict
		return e
	}
	return fmt.Errorf("write role: %w", err)
}

func collectIDs(rows pgx.Rows, err error) ([]int64, error) {
	if err != nil {
		return nil, fmt.Errorf("query ids: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("query ids: %w", err)
	}
	return ids, nil
}

// audit records an action on a role or colleague.
func (s *Service) audit(ctx context.Context, tx pgx.Tx, id acl.Identity, action string, target int64, ip string, details map[string]any) error {
	return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
		Action: action, Target: strconv.FormatInt(target, 10), Details: details, IP: ip})
}

// persianNumber writes n in Persian digits.
func persianNumber(n int) string {
	return strings.Map(func(r rune) rune { return r - '0' + '۰' }, strconv.Itoa(n))
}
