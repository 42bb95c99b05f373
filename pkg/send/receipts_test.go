package send_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/testenv"
)

// A receipt that overtakes its submit response waits in pending_receipts and is
// applied once the message id is recorded; a repeated receipt changes nothing.
func TestReceiptBeforeSubmitResponse(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	s := send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil)
	var acct, sendID, r1, r2 int64
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('a') RETURNING id`).Scan(&acct))
	must(d.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, recipients, expanded_at)
		VALUES ($1, 'quick', '3000', 'x', 'sending', 2, now()) RETURNING id`, acct).Scan(&sendID))
	must(d.Pool.QueryRow(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		VALUES ($1, 0, '989121234567', 'mci', 1, 230, 0) RETURNING id`, sendID).Scan(&r1))
	must(d.Pool.QueryRow(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		VALUES ($1, 0, '989201234567', 'rightel', 2, 458, 0) RETURNING id`, sendID).Scan(&r2))
	_, err := d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part) VALUES ('mci', 'a1', $1, $2, 1)`, r1, sendID)
	must(err)

	// A batch in which no receipt matches yet parks them all.
	a, err := s.ApplyReceipts(ctx, []send.Receipt{{Operator: "irancell", MsgID: "zz", Stat: send.StatDelivered, Mobile: "989351234567"}})
	must(err)
	if a.Pending != 1 {
		t.Fatalf("unmatched batch %+v", a)
	}
	// r1's receipt matches; r2's two parts arrive before their ids are recorded.
	a, err = s.ApplyReceipts(ctx, []send.Receipt{
		{Operator: "mci", MsgID: "a1", AltIDs: []string{"161"}, Stat: send.StatDelivered, Mobile: "989121234567"},
		{Operator: "rightel", MsgID: "b1", AltIDs: []string{"177"}, Stat: send.StatDelivered, Mobile: "989201234567"},
		{Operator: "rightel", MsgID: "b2", AltIDs: []string{"178"}, Stat: send.StatUndelivered, Mobile: "989201234567"},
	})
	must(err)
	if a.Delivered != 1 || a.Pending != 2 {
		t.Fatalf("first apply %+v", a)
	}
	_, err = d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part) VALUES
		('rightel', 'b1', $1, $2, 1), ('rightel', 'b2', $1, $2, 2)`, r2, sendID)
	must(err)
	a, err = s.RetryPending(ctx)
	must(err)
	if a.Failed != 1 {
		t.Fatalf("retry %+v", a)
	}
	// The same receipt again changes nothing.
	a, err = s.ApplyReceipts(ctx, []send.Receipt{{Operator: "mci", MsgID: "a1", Stat: send.StatDelivered}})
	must(err)
	if a.Delivered != 0 || a.Pending != 0 {
		t.Fatalf("repeat %+v", a)
	}
	var st1, st2 int16
	var delivered, undelivered int
	must(d.Pool.QueryRow(ctx, `SELECT (SELECT status FROM recipients WHERE id = $1), (SELECT status FROM recipients WHERE id = $2),
		delivered, undelivered FROM sends WHERE id = $3`, r1, r2, sendID).Scan(&st1, &st2, &delivered, &undelivered))
	if st1 != 2 || st2 != 3 || delivered != 1 || undelivered != 1 {
		t.Fatalf("statuses %d %d, counters %d %d", st1, st2, delivered, undelivered)
	}
}
