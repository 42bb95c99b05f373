package send_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
)

// One receipt batch of three accounts' sends: the delivery.receipt events go to
// every enabled endpoint that wants them (account A has two), one per final
// receipt, and to no endpoint that is disabled, deleted or wants other events
// (accounts B and C), nor for a receipt that is not final.
func TestReceiptEventsPerEndpoint(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	svc := send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil)
	type acct struct {
		name   string
		hooks  []string // each endpoint: "on", "off" (disabled), "gone" (deleted), "other" (other events)
		sendID int64
	}
	accts := []*acct{{name: "a", hooks: []string{"on", "on", "other"}}, {name: "b", hooks: []string{"off", "gone"}},
		{name: "c", hooks: []string{"other"}}}
	var rs []send.Receipt
	for _, a := range accts {
		id := testenv.Scalar[int64](t, d, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, a.name)
		for _, h := range a.hooks {
			events := "{delivery.receipt}"
			if h == "other" {
				events = "{send.finished}"
			}
			if _, err := d.Pool.Exec(ctx, `INSERT INTO webhook_endpoints (account_id, url, events, secret, enabled, deleted_at)
				VALUES ($1, 'https://example.com/h', $2, 's', $3, CASE WHEN $4 THEN now() END)`,
				id, events, h != "off", h == "gone"); err != nil {
				t.Fatal(err)
			}
		}
		a.sendID = testenv.Scalar[int64](t, d, `INSERT INTO sends (account_id, type, sender, text, status, recipients, expanded_at)
			VALUES ($1, 'quick', '3000', 'x', 'sending', 3, now()) RETURNING id`, id)
		for k, stat := range []int16{send.StatDelivered, send.StatUndelivered, send.StatEnroute} {
			mobile := fmt.Sprintf("98912%07d", len(rs))
			rid := testenv.Scalar[int64](t, d, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status,
				part_states, submitted_at) VALUES ($1, 0, $2, 'mci', 1, 230, 0, 'a', now()) RETURNING id`, a.sendID, mobile)
			msgID := fmt.Sprintf("%s-%d", a.name, k)
			if _, err := d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part, created_at)
				VALUES ('mci', $1, $2, $3, 1, now())`, msgID, rid, a.sendID); err != nil {
				t.Fatal(err)
			}
			rs = append(rs, send.Receipt{Operator: "mci", MsgID: msgID, Stat: stat, State: "X", Mobile: mobile,
				ReceivedAt: time.Now().Add(time.Second)})
		}
	}
	if _, err := svc.ApplyReceipts(ctx, rs); err != nil {
		t.Fatal(err)
	}
	got := testenv.Scalar[int64](t, d, `SELECT count(*) FROM webhook_events`)
	byA := testenv.Scalar[int64](t, d, `SELECT count(*) FROM webhook_events w JOIN webhook_endpoints e ON e.id = w.endpoint_id
		WHERE e.account_id = (SELECT account_id FROM sends WHERE id = $1) AND w.event = 'delivery.receipt'
		AND (w.payload->>'send_id')::bigint = $1`, accts[0].sendID)
	if got != 4 || byA != 4 {
		t.Fatalf("%d events (%d of account a's send), want 4: two final receipts to each of a's two endpoints", got, byA)
	}
}
