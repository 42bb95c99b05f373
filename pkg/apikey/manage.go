package apikey

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/plan"
	"github.com/chapar/chapar/pkg/validate"
)

// Key is an API key as listed: never its secret.
type Key struct {
	ID         int64      `json:"id"`
	Title      string     `json:"title"`
	Prefix     string     `json:"prefix"`
	AllowedIPs []string   `json:"allowed_ips"`
	Scopes     []string   `json:"scopes"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	CreatedAt  time.Time  `json:"created_at"`
	CreatedBy  string     `json:"created_by"`
	// Sandbox marks the account's sandbox key: its sends never charge and never
	// reach a carrier (docs/developers.md).
	Sandbox bool `json:"sandbox"`
}

// Created is a new key with its secret, which is shown this once.
type Created struct {
	Key
	Secret string `json:"secret"`
}

// CreateInput is the create form with its one-time code.
type CreateInput struct {
	Title      string     `json:"title"`
	AllowedIPs []string   `json:"allowed_ips"`
	ExpiresAt  *time.Time `json:"expires_at"`
	Scopes     []string   `json:"scopes"`
	OTPToken   string     `json:"otp_token"`
	Code       string     `json:"code"`
	Sandbox    bool       `json:"sandbox"`
}

// panelOnly refuses key management to a caller that is itself an API key.
func panelOnly(id acl.Identity) error {
	if id.APIKeyID != 0 {
		return apperr.New(apperr.Forbidden, MsgKeyOnly).WithCode(apperr.CodeForbidden)
	}
	return nil
}

// SendOTP sends the code that creating a key needs to the caller's mobile; none is
// sent when the plan has no place for another key.
func (s *Service) SendOTP(ctx context.Context, id acl.Identity, c auth.Client) (auth.StepUp, error) {
	if err := panelOnly(id); err != nil {
		return auth.StepUp{}, err
	}
	if err := plan.CheckLimit(ctx, s.pool, id.AccountID, plan.APIKeys); err != nil {
		return auth.StepUp{}, err
	}
	return s.auth.StartStepUp(ctx, id.UserID, auth.PurposeAPIKey, c)
}

// Create checks the form and the one-time code, stores the key's hash and returns
// the secret once.
func (s *Service) Create(ctx context.Context, id acl.Identity, in CreateInput, c auth.Client) (Created, error) {
	if err := panelOnly(id); err != nil {
		return Created{}, err
	}
	k, err := s.check(id, in)
	if err != nil {
		return Created{}, err
	}
	// Checked before the code is spent, and again in the insert's transaction.
	if err := plan.CheckLimit(ctx, s.pool, id.AccountID, plan.APIKeys); err != nil {
		return Created{}, err
	}
	if err := s.auth.ConfirmStepUp(ctx, id.UserID, auth.PurposeAPIKey, in.OTPToken, in.Code, c); err != nil {
		return Created{}, err
	}
	prefix, secret, err := newKey()
	if err != nil {
		return Created{}, err
	}
	k.Prefix, k.CreatedBy, k.Sandbox = prefix, id.Username, in.Sandbox
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := plan.CheckLimit(ctx, tx, id.AccountID, plan.APIKeys); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `INSERT INTO api_keys (account_id, created_by, title, prefix, secret_hash, allowed_ips, scopes, expires_at, sandbox)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING id, created_at`, id.AccountID, id.UserID, k.Title, prefix, s.hash(secret),
			k.AllowedIPs, k.Scopes, k.ExpiresAt, k.Sandbox).Scan(&k.ID, &k.CreatedAt)
		if oneSandbox(err) {
			return apperr.New(apperr.Conflict, MsgOneSandbox).WithCode("apikey-sandbox-exists")
		}
		if err != nil {
			return fmt.Errorf("insert api key: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "apikey.create", TargetType: "api_key",
			IP: c.IP, Target: fmt.Sprint(k.ID)})
	})
	if err != nil {
		return Created{}, err
	}
	return Created{Key: k, Secret: secret}, nil
}

// check validates the form: every problem at once, in Persian.
func (s *Service) check(id acl.Identity, in CreateInput) (Key, error) {
	f := apperr.Fields{}
	k := Key{Title: strings.TrimSpace(in.Title), ExpiresAt: in.ExpiresAt, Scopes: []string{}}
	switch {
	case k.Title == "":
		f.Add("title", MsgTitle)
	case utf8.RuneCountInString(k.Title) > 100:
		f.Add("title", MsgTitleLong)
	}
	if ips, bad, ok := ParseAllowList(in.AllowedIPs); !ok {
		f.Add("allowed_ips", MsgBadIP+bad)
	} else if len(ips) > MaxIPs {
		f.Add("allowed_ips", MsgTooManyIPs)
	} else {
		k.AllowedIPs = prefixStrings(ips)
	}
	if k.ExpiresAt != nil && !k.ExpiresAt.After(s.now()) {
		f.Add("expires_at", MsgExpiry)
	}
	for _, sc := range in.Scopes {
		p := acl.Permission(strings.TrimSpace(sc))
		switch {
		case !acl.Known(p) || p == acl.APIKeyManage:
			f.Add("scopes", MsgScopeUnknown+sc)
		case !id.Can(p):
			f.Add("scopes", MsgScopeDenied+acl.Titles[p])
		default:
			k.Scopes = append(k.Scopes, string(p))
		}
	}
	if len(in.Scopes) == 0 {
		f.Add("scopes", MsgScopes)
	}
	return k, f.Err()
}

// newKey returns a key's visible prefix and the whole secret key.
func newKey() (prefix, key string, err error) {
	b := make([]byte, 6+32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("random api key: %w", err)
	}
	prefix = Prefix + hex.EncodeToString(b[:6])
	return prefix, prefix + "_" + base64.RawURLEncoding.EncodeToString(b[6:]), nil
}

const keyColumns = `k.id, k.title, k.prefix, k.allowed_ips, k.scopes, k.expires_at, k.last_used_at, k.created_at, u.username, k.sandbox`

func scanKey(row pgx.Row) (Key, error) {
	var k Key
	err := row.Scan(&k.ID, &k.Title, &k.Prefix, &k.AllowedIPs, &k.Scopes, &k.ExpiresAt, &k.LastUsedAt, &k.CreatedAt, &k.CreatedBy, &k.Sandbox)
	return k, err
}

// List returns a page of the account's live keys, newest first.
func (s *Service) List(ctx context.Context, id acl.Identity, p validate.Paging) ([]Key, int64, error) {
	if err := panelOnly(id); err != nil {
		return nil, 0, err
	}
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL`,
		id.AccountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count api keys: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys k JOIN users u ON u.id = k.created_by
		WHERE k.account_id = $1 AND k.revoked_at IS NULL ORDER BY k.id DESC LIMIT $2 OFFSET $3`, id.AccountID, p.Limit, p.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("list api keys: %w", err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Key, error) { return scanKey(r) })
	if err != nil {
		return nil, 0, fmt.Errorf("list api keys: %w", err)
	}
	return keys, total, nil
}

// Show returns one live key of the account (never its secret, which is not kept).
func (s *Service) Show(ctx context.Context, id acl.Identity, keyID int64) (Key, error) {
	if err := panelOnly(id); err != nil {
		return Key{}, err
	}
	k, err := scanKey(s.pool.QueryRow(ctx, `SELECT `+keyColumns+` FROM api_keys k JOIN users u ON u.id = k.created_by
		WHERE k.id = $1 AND k.account_id = $2 AND k.revoked_at IS NULL`, keyID, id.AccountID))
	if errors.Is(err, pgx.ErrNoRows) {
		return Key{}, apperr.ErrNotFound
	}
	if err != nil {
		return Key{}, fmt.Errorf("show api key: %w", err)
	}
	return k, nil
}

// Delete revokes a key of the account; every API instance refuses it from the next
// request.
func (s *Service) Delete(ctx context.Context, id acl.Identity, keyID int64, ip string) error {
	if err := panelOnly(id); err != nil {
		return err
	}
	var prefix string
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL
			RETURNING prefix`, keyID, id.AccountID).Scan(&prefix)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("revoke api key: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "apikey.delete", TargetType: "api_key",
			IP: ip, Target: fmt.Sprint(keyID)})
	})
	if err != nil {
		return err
	}
	s.auth.Forget(ctx, cacheKey(prefix))
	return nil
}

// Scope is one permission a key may be given, with its feature group, for the form.
type Scope struct {
	Key        acl.Permission `json:"key"`
	Title      string         `json:"title"`
	Group      string         `json:"group"`
	GroupTitle string         `json:"group_title"`
}

// Scopes lists the permissions the caller may give a key: those they hold, but never
// key management.
func Scopes(id acl.Identity) []Scope {
	out := []Scope{}
	for _, p := range acl.All {
		if p == acl.APIKeyManage || !id.Can(p) {
			continue
		}
		g, _ := acl.GroupOf(p)
		out = append(out, Scope{Key: p, Title: acl.Titles[p], Group: g.Key, GroupTitle: g.Title})
	}
	return out
}
