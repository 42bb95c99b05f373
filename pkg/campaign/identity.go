package campaign

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/audit"
)

// Why a campaign stopped: its maker can no longer send (docs/security.md).
const (
	MsgMakerDisabled = "همکاری که این کمپین را ساخته غیرفعال شده است؛ کمپین متوقف شد"
	MsgMakerNoSend   = "سازنده این کمپین دیگر دسترسی ارسال پیامک ندارد؛ کمپین متوقف شد"
	MsgKeyRevoked    = "کلید API سازنده این کمپین باطل شده است؛ کمپین متوقف شد"
)

// runAs rebuilds the identity the campaign was made with: its user with their
// current role, its API key and its sandbox flag. When that identity can no longer
// send (a deactivated colleague, a role without send.create, a revoked key) it
// returns the reason instead. A campaign stored without a user runs as the owner.
func runAs(ctx context.Context, tx pgx.Tx, d dueRun) (acl.Identity, string, error) {
	id := acl.Identity{AccountID: d.accountID, IsOwner: true, Sandbox: d.sandbox}
	if d.apiKeyID != nil {
		id.APIKeyID = *d.apiKeyID
	}
	if d.userID == nil {
		return id, "", nil
	}
	id.UserID = *d.userID
	var status string
	var perms []string
	var keyLive bool
	err := tx.QueryRow(ctx, `SELECT u.status, u.is_owner, coalesce(r.permissions, '{}'),
		$3::bigint = 0 OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = $3 AND k.revoked_at IS NULL)
		FROM users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = $1 AND u.account_id = $2`,
		id.UserID, id.AccountID, id.APIKeyID).Scan(&status, &id.IsOwner, &perms, &keyLive)
	if errors.Is(err, pgx.ErrNoRows) {
		return id, MsgMakerDisabled, nil
	}
	if err != nil {
		return id, "", fmt.Errorf("campaign %d maker: %w", d.id, err)
	}
	for _, p := range perms {
		id.Permissions = append(id.Permissions, acl.Permission(p))
	}
	switch {
	case status == "disabled":
		return id, MsgMakerDisabled, nil
	case !keyLive:
		return id, MsgKeyRevoked, nil
	case !id.Can(acl.SendCreate):
		return id, MsgMakerNoSend, nil
	}
	return id, "", nil
}

// stop turns the campaign off, records the refused run and tells the owner in the
// audit log why.
func stop(ctx context.Context, tx pgx.Tx, d dueRun, why string) error {
	if _, err := tx.Exec(ctx, `UPDATE campaigns SET enabled = false, next_run_at = NULL, retry_at = NULL, updated_at = now()
		WHERE id = $1`, d.id); err != nil {
		return fmt.Errorf("stop campaign: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO campaign_runs (campaign_id, due_at, status, error) VALUES ($1, $2, 'failed', $3)
		ON CONFLICT (campaign_id, due_at) DO NOTHING`, d.id, d.at, why); err != nil {
		return fmt.Errorf("record stopped run: %w", err)
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: d.accountID, Action: audit.CampaignStopped, TargetType: "campaign",
		Target: strconv.FormatInt(d.id, 10), Details: map[string]any{"title": d.title, "reason": why}})
}

// StopMaker turns off, inside tx, the enabled campaigns a deactivated colleague made
// and returns their titles (for the owner's audit entry of the deactivation).
func StopMaker(ctx context.Context, tx pgx.Tx, accountID, userID int64) ([]string, error) {
	rows, err := tx.Query(ctx, `UPDATE campaigns SET enabled = false, next_run_at = NULL, retry_at = NULL, updated_at = now()
		WHERE account_id = $1 AND user_id = $2 AND enabled RETURNING title`, accountID, userID)
	if err != nil {
		return nil, fmt.Errorf("stop campaigns of %d: %w", userID, err)
	}
	titles, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("stop campaigns of %d: %w", userID, err)
	}
	return titles, nil
}
