// Package audit records every state-changing action: who (user and API key), what,
// to what, when, from which IP and browser, with a small summary of the state before
// and after. The owner answers for colleagues' actions, so the log shows them. The
// table is append-only in the database (migration 0015): updates and deletes are
// refused.
package audit

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/pkg/acl"
)

// Execer is a pool or a transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Entry is one audited action. Zero caller fields (account, user, API key, IP, user
// agent) are taken from the request context (see WithClient and WithIdentity); an
// entry made in an impersonated session always names the staff member
// (details.staff).
type Entry struct {
	AccountID  int64
	UserID     int64
	APIKeyID   int64
	Action     string
	TargetType string
	Target     string
	Details    map[string]any
	Before     any
	After      any
	IP         string
	UserAgent  string
}

// maxUserAgent caps the stored user agent.
const maxUserAgent = 300

// Record writes the entry, inside the caller's transaction when given one.
func Record(ctx context.Context, db Execer, e Entry) error {
	e = fill(ctx, e)
	details, err := encode(e.Details)
	if err != nil {
		return fmt.Errorf("audit details: %w", err)
	}
	if details == nil {
		details = []byte("{}")
	}
	before, err := encode(e.Before)
	if err != nil {
		return fmt.Errorf("audit before: %w", err)
	}
	after, err := encode(e.After)
	if err != nil {
		return fmt.Errorf("audit after: %w", err)
	}
	_, err = db.Exec(ctx, `INSERT INTO audit_log (account_id, user_id, api_key_id, action, target_type, target,
		details, before, after, ip, user_agent)
		VALUES (nullif($1, 0), nullif($2, 0), nullif($3, 0), $4, $5, $6, $7, $8, $9, $10, $11)`,
		e.AccountID, e.UserID, e.APIKeyID, e.Action, e.TargetType, e.Target, details, before, after, e.IP, e.UserAgent)
	if err != nil {
		return fmt.Errorf("audit %s: %w", e.Action, err)
	}
	return nil
}

// Committed records an entry for a change already committed on its own (a single
// statement with no transaction to share). The change cannot be undone, so a failure
// is logged rather than returned.
func Committed(ctx context.Context, db Execer, e Entry) {
	if err := Record(ctx, db, e); err != nil {
		slog.ErrorContext(ctx, "audit not recorded", "action", e.Action, "err", err)
	}
}

// encode marshals a summary; nil stays SQL NULL.
func encode(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return nil, nil
	}
	return json.Marshal(v)
}

// fill completes the entry's caller from the request context.
func fill(ctx context.Context, e Entry) Entry {
	if c, ok := ctx.Value(clientKey{}).(client); ok {
		e.IP = cmp.Or(e.IP, c.ip)
		e.UserAgent = cmp.Or(e.UserAgent, c.userAgent)
	}
	if id, ok := ctx.Value(identityKey{}).(acl.Identity); ok && (e.AccountID == 0 || e.AccountID == id.AccountID) {
		e.AccountID = id.AccountID
		if e.UserID == 0 {
			e.UserID = id.UserID
		}
		if e.APIKeyID == 0 {
			e.APIKeyID = id.APIKeyID
		}
		if id.Impersonator != "" {
			e.Details = withStaff(e.Details, id.Impersonator)
		}
	}
	if e.TargetType == "" && e.Target != "" {
		e.TargetType, _, _ = strings.Cut(e.Action, ".")
	}
	if len(e.UserAgent) > maxUserAgent {
		e.UserAgent = e.UserAgent[:maxUserAgent]
	}
	return e
}

// withStaff returns a copy of details naming the staff member who acted in an
// impersonated session (the caller's map is left alone).
func withStaff(details map[string]any, staff string) map[string]any {
	out := make(map[string]any, len(details)+1)
	for k, v := range details {
		out[k] = v
	}
	out["staff"] = staff
	return out
}

type (
	clientKey   struct{}
	identityKey struct{}
	client      struct{ ip, userAgent string }
)

// WithClient returns ctx carrying the request's IP and user agent for Record.
func WithClient(ctx context.Context, ip, userAgent string) context.Context {
	return context.WithValue(ctx, clientKey{}, client{ip: ip, userAgent: userAgent})
}

// WithIdentity returns ctx carrying the authenticated caller for Record.
func WithIdentity(ctx context.Context, id acl.Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}
