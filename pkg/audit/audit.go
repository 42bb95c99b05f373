// Package audit records every state-changing action: who (user and API key), what,
// when and from which IP. The owner answers for colleagues' actions, so the log
// shows them.
package audit

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// Execer is a pool or a transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Entry is one audited action.
type Entry struct {
	AccountID int64
	UserID    int64
	APIKeyID  int64
	Action    string
	Target    string
	Details   map[string]any
	IP        string
}

// Record writes the entry, inside the caller's transaction when given one.
func Record(ctx context.Context, db Execer, e Entry) error {
	details := []byte("{}")
	if len(e.Details) > 0 {
		var err error
		if details, err = json.Marshal(e.Details); err != nil {
			return fmt.Errorf("audit details: %w", err)
		}
	}
	_, err := db.Exec(ctx, `INSERT INTO audit_log (account_id, user_id, api_key_id, action, target, details, ip)
		VALUES (nullif($1, 0), nullif($2, 0), nullif($3, 0), $4, $5, $6, $7)`,
		e.AccountID, e.UserID, e.APIKeyID, e.Action, e.Target, details, e.IP)
	if err != nil {
		return fmt.Errorf("audit %s: %w", e.Action, err)
	}
	return nil
}
