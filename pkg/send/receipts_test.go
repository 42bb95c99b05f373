package send_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
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
	sendID = sendingSend(t, d, acct, 2)
	must(d.Pool.QueryRow(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		VALUES ($1, 0, '989121234567', 'mci', 1, 230, 0) RETURNING id`, sendID).Scan(&r1))
	must(d.Pool.QueryRow(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		VALUES ($1, 0, '989201234567', 'rightel', 2, 458, 0) RETURNING id`, sendID).Scan(&r2))
	// a1 was accepted five seconds before its receipt arrives.
	_, err := d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part, created_at)
		VALUES ('mci', 'a1', $1, $2, 1, now() - interval '5 seconds')`, r1, sendID)
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
	// The receipt latency (chapar_receipt_latency_seconds): a1's five seconds.
	if len(a.Waited) != 1 || a.Waited[0] < 4*time.Second || a.Waited[0] > time.Minute {
		t.Fatalf("first apply waited %v, want about 5 s for a1 alone", a.Waited)
	}
	_, err = d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part) VALUES
		('rightel', 'b1', $1, $2, 1), ('rightel', 'b2', $1, $2, 2)`, r2, sendID)
	must(err)
	a, err = s.RetryPending(ctx)
	must(err)
	if a.Failed != 1 {
		t.Fatalf("retry %+v", a)
	}
	// b1 and b2 overtook their submit_sm_resp: they waited nothing.
	if len(a.Waited) != 2 || a.Waited[0] != 0 || a.Waited[1] != 0 {
		t.Fatalf("retry waited %v, want two zeros", a.Waited)
	}
	// The same receipt again changes nothing.
	a, err = s.ApplyReceipts(ctx, []send.Receipt{{Operator: "mci", MsgID: "a1", Stat: send.StatDelivered}})
	must(err)
	if a.Delivered != 0 || a.Pending != 0 {
		t.Fatalf("repeat %+v", a)
	}
	var st1, st2 int16
	var delivered, undelivered int
	_, err = s.FoldCounts(ctx)
	must(err)
	must(d.Pool.QueryRow(ctx, `SELECT (SELECT status FROM recipients WHERE id = $1), (SELECT status FROM recipients WHERE id = $2),
		delivered, undelivered FROM sends WHERE id = $3`, r1, r2, sendID).Scan(&st1, &st2, &delivered, &undelivered))
	if st1 != 2 || st2 != 3 || delivered != 1 || undelivered != 1 {
		t.Fatalf("statuses %d %d, counters %d %d", st1, st2, delivered, undelivered)
	}
}

// Two consumers apply overlapping batches at once, as the worker's consumer group
// does: every part's receipt arrives twice (once en route, once final, and the
// final one again), spread over both. Each part is counted once, no recipient
// moves back from a final state, and the send's counters are exact.
func TestReceiptsConcurrentConsumers(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	s := send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	const n = 300
	var acct, sendID int64
	must(d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('a') RETURNING id`).Scan(&acct))
	sendID = sendingSend(t, d, acct, n)
	_, err := d.Pool.Exec(ctx, `WITH r AS (
			INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
			SELECT $1, 0, '98912' || lpad(g::text, 7, '0'), 'mci', 2, 420, 0 FROM generate_series(1, $2::int) g RETURNING id, mobile)
		INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part)
		SELECT 'mci', r.mobile || '-' || p, r.id, $1, p FROM r, generate_series(1, 2) p`, sendID, n)
	must(err)
	var all []send.Receipt
	for i := 1; i <= n; i++ {
		mobile := fmt.Sprintf("98912%07d", i)
		for p := 1; p <= 2; p++ {
			id := fmt.Sprintf("%s-%d", mobile, p)
			for _, st := range []int16{send.StatEnroute, send.StatDelivered, send.StatDelivered} {
				all = append(all, send.Receipt{Operator: "mci", MsgID: id, Stat: st, Mobile: mobile})
			}
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	var wg sync.WaitGroup
	var delivered atomic.Int64
	for c := range 2 {
		wg.Go(func() {
			for b := c * 100; b < len(all); b += 200 {
				batch := all[b:min(b+100, len(all))]
				for attempt := 1; ; attempt++ { // a deadlock aborts one side: the consumer retries
					a, err := s.ApplyReceipts(ctx, batch)
					if err == nil {
						delivered.Add(int64(a.Delivered))
						break
					}
					if attempt == 5 {
						t.Errorf("consumer %d: %v", c, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if _, err := s.FoldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	var done, parts, sDelivered, sUndelivered int
	must(d.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 2), sum(parts_delivered + parts_failed),
		(SELECT delivered FROM sends WHERE id = $1), (SELECT undelivered FROM sends WHERE id = $1)
		FROM recipients WHERE send_id = $1`, sendID).Scan(&done, &parts, &sDelivered, &sUndelivered))
	if done != n || parts != 2*n || sDelivered != n || sUndelivered != 0 || delivered.Load() != n {
		t.Fatalf("reached handset %d, parts counted %d, send counters %d/%d, applied %d; want %d, %d, %d/0, %d",
			done, parts, sDelivered, sUndelivered, delivered.Load(), n, 2*n, n, n)
	}
	if c := 0; d.Pool.QueryRow(ctx, `SELECT count(*) FROM pending_receipts`).Scan(&c) != nil || c != 0 {
		t.Fatalf("%d receipts left pending", c)
	}
}

// A failed receipt records the carrier's state as its recipient's error, applied
// at once or after waiting for its message id; a delivered one records none.
func TestFailedReceiptRecordsItsState(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	s := send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil)
	var acct, sendID int64
	ids := make([]int64, 3)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('a') RETURNING id`).Scan(&acct))
	sendID = sendingSend(t, d, acct, 3)
	for i, m := range []string{"989121234567", "989121234568", "989121234569"} {
		must(d.Pool.QueryRow(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
			VALUES ($1, 0, $2, 'mci', 1, 230, 0) RETURNING id`, sendID, m).Scan(&ids[i]))
	}
	_, err := d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part) VALUES
		('mci', 'e1', $1, $3, 1), ('mci', 'e2', $2, $3, 1)`, ids[0], ids[1], sendID)
	must(err)
	_, err = s.ApplyReceipts(ctx, []send.Receipt{
		{Operator: "mci", MsgID: "e1", Stat: send.StatUndelivered, State: "EXPIRED", Mobile: "989121234567"},
		{Operator: "mci", MsgID: "e2", Stat: send.StatDelivered, Mobile: "989121234568"},
		{Operator: "mci", MsgID: "e3", Stat: send.StatUndelivered, State: "UNDELIV err:011", Mobile: "989121234569"},
	})
	must(err)
	_, err = d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part) VALUES ('mci', 'e3', $1, $2, 1)`,
		ids[2], sendID)
	must(err)
	if a, err := s.RetryPending(ctx); err != nil || a.Failed != 1 {
		t.Fatalf("retry %+v %v", a, err)
	}
	want := []string{"EXPIRED", "", "UNDELIV err:011"}
	for i, id := range ids {
		var status int16
		var errText string
		must(d.Pool.QueryRow(ctx, `SELECT status, error FROM recipients WHERE id = $1`, id).Scan(&status, &errText))
		if errText != want[i] || (want[i] == "") != (status == 2) {
			t.Fatalf("recipient %d: status %d error %q, want error %q", i, status, errText, want[i])
		}
	}
}
