package webhook

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/inbox"
)

// ReceiptEventsCTE is a data-modifying CTE for pkg/send's receipt statement: from
// the CTE named upd, whose rows are recipients just updated (id, send_id, mobile,
// status), it writes a delivery.receipt event for each recipient that reached a
// final state (2 reached the handset, 3 did not) to every enabled endpoint of the
// send's account that wants it. It runs in the receipt batch's own statement and
// transaction: one set-based insert per batch, and no event without its receipt.
// The endpoints are looked up once per send of the batch (h), not once per
// recipient: a batch of a send whose account has none writes nothing after one
// probe, where a probe per recipient cost up to about 1 µs of PostgreSQL's CPU
// a receipt (BenchmarkApplyReceipts in pkg/send).
func ReceiptEventsCTE(upd string) string {
	return `INSERT INTO webhook_events (endpoint_id, event, payload)
		SELECT h.endpoint, '` + EventDelivery + `', jsonb_build_object('message_id', u.id, 'send_id', u.send_id,
			'mobile', shown_mobile(h.masked, bank_masked(h.type, u.mobile)), 'status', u.status, 'delivered', u.status = 2, 'at', now())
		FROM (SELECT s.id AS send_id, s.masked, s.type, e.id AS endpoint
			FROM sends s JOIN webhook_endpoints e ON e.account_id = s.account_id AND e.enabled AND e.deleted_at IS NULL
				AND '` + EventDelivery + `' = ANY(e.events)
			WHERE s.id IN (SELECT send_id FROM ` + upd + `)) AS h
		JOIN ` + upd + ` u ON u.send_id = h.send_id
		WHERE u.status IN (2, 3)`
}

// CaptureInbound writes an inbound.message event for each stored MO to the
// enabled endpoints of its account that want it, inside the inbox's transaction
// (inbox.Service.OnStored).
func CaptureInbound(ctx context.Context, tx pgx.Tx, ms []inbox.Stored) error {
	if len(ms) == 0 {
		return nil
	}
	ids, accounts := make([]int64, len(ms)), make([]int64, len(ms))
	senders, lines, texts := make([]string, len(ms)), make([]string, len(ms)), make([]string, len(ms))
	at := make([]time.Time, len(ms))
	for i, m := range ms {
		ids[i], accounts[i], senders[i], lines[i], texts[i], at[i] = m.ID, m.AccountID, m.Shown(), m.Line, m.Text, m.ReceivedAt
	}
	_, err := tx.Exec(ctx, `INSERT INTO webhook_events (endpoint_id, event, payload)
		SELECT e.id, '`+EventInbound+`', jsonb_build_object('inbox_id', m.id, 'sender', m.sender, 'line', m.line,
			'text', m.text, 'received_at', m.at)
		FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
			AS m(id, account_id, sender, line, text, at)
		JOIN webhook_endpoints e ON e.account_id = m.account_id AND e.enabled AND e.deleted_at IS NULL
			AND '`+EventInbound+`' = ANY(e.events)
		ORDER BY m.id`, ids, accounts, senders, lines, texts, at)
	if err != nil {
		return fmt.Errorf("inbound webhook events: %w", err)
	}
	return nil
}

// Purge deletes delivered deliveries older than keepDelivered and dead ones
// older than keepDead (their events go with them), at most limit rows a call.
func (d *Deliverer) Purge(ctx context.Context, keepDelivered, keepDead time.Duration, limit int) (int64, error) {
	tag, err := d.pool.Exec(ctx, `DELETE FROM webhook_deliveries WHERE id = ANY(ARRAY(
		SELECT id FROM webhook_deliveries WHERE (status = 'delivered' AND created_at < now() - $1::interval)
			OR (status = 'dead' AND created_at < now() - $2::interval) LIMIT $3))`, keepDelivered, keepDead, limit)
	if err != nil {
		return 0, fmt.Errorf("purge webhook deliveries: %w", err)
	}
	return tag.RowsAffected(), nil
}
