package send_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/send"
)

// One receipt batch of three accounts' sends: the delivery.receipt events go to
// every enabled endpoint that wants them (account a has two), one per final
// receipt, and to no endpoint that is disabled, deleted or wants other events
// (accounts b and c), nor for a receipt that is not final.
func TestReceiptEventsPerEndpoint(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	// Each endpoint: "on", "off" (disabled), "gone" (deleted), "other" (other events).
	hooks := [][]string{{"on", "on", "other"}, {"off", "gone"}, {"other"}}
	var fs []*matchFixture
	var rs []send.Receipt
	for a, hs := range hooks {
		f := matchFixtureIn(t, d)
		fs = append(fs, f)
		for _, h := range hs {
			events := "{delivery.receipt}"
			if h == "other" {
				events = "{send.finished}"
			}
			_, err := d.Pool.Exec(ctx, `INSERT INTO webhook_endpoints (account_id, url, events, secret, enabled, deleted_at)
				VALUES ($1, 'https://example.com/h', $2, 's', $3, CASE WHEN $4 THEN now() END)`, f.acct, events, h != "off", h == "gone")
			f.must(err)
		}
		for k, stat := range []int16{send.StatDelivered, send.StatUndelivered, send.StatEnroute} {
			mobile := fmt.Sprintf("98912%07d", len(rs))
			msgID := fmt.Sprintf("%d-%d", a, k)
			f.id(msgID, f.recipient(mobile, 1, "a", false), 1, time.Now())
			rs = append(rs, send.Receipt{Operator: "mci", MsgID: msgID, Stat: stat, State: "X", Mobile: mobile,
				ReceivedAt: time.Now().Add(time.Second)})
		}
	}
	if _, err := fs[0].s.ApplyReceipts(ctx, rs); err != nil {
		t.Fatal(err)
	}
	got := testenv.Scalar[int64](t, d, `SELECT count(*) FROM webhook_events`)
	ofA := testenv.Scalar[int64](t, d, `SELECT count(*) FROM webhook_events w JOIN webhook_endpoints e ON e.id = w.endpoint_id
		WHERE e.account_id = $1 AND w.event = 'delivery.receipt' AND (w.payload->>'send_id')::bigint = $2`,
		fs[0].acct, fs[0].sendID)
	if got != 4 || ofA != 4 {
		t.Fatalf("%d events (%d of account a's send), want 4: two final receipts to each of a's two endpoints", got, ofA)
	}
}
