package send_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
)

// matchFixture is a sending send with recipients inserted by the test.
type matchFixture struct {
	t      *testing.T
	d      testenv.Database
	s      *send.Service
	acct   int64
	sendID int64
	// ids, when set, is the Redis id store the test records ids in (redis mode);
	// nil, they go to message_ids (table mode).
	ids *send.IDStore
	rdb testenv.Redis
}

// inEachStore runs test in each id store (migrations/0199): table (message_ids
// rows) and redis (the keys of send.IDStore and the ids on the recipient).
func inEachStore(t *testing.T, test func(t *testing.T, f *matchFixture)) {
	for _, mode := range []string{send.IDsTable, send.IDsRedis} {
		t.Run(mode, func(t *testing.T) {
			f := newMatchFixture(t)
			if mode == send.IDsRedis {
				f.withIDStore()
			}
			test(t, f)
		})
	}
}

// withIDStore records the fixture's ids in a Redis id store of the test's own.
func (f *matchFixture) withIDStore() {
	f.rdb = testenv.RedisDB(f.t)
	f.ids = send.NewIDStore(f.rdb.Client, 0)
	f.s.SetIDStore(f.ids)
}

func newMatchFixture(t *testing.T) *matchFixture {
	return matchFixtureIn(t, testenv.Postgres(t))
}

// matchFixtureIn is a fixture of a new account and send in the database d.
func matchFixtureIn(t *testing.T, d testenv.Database) *matchFixture {
	f := &matchFixture{t: t, d: d}
	f.s = send.New(f.d.Pool, nil, line.New(f.d.Pool), nil, 0, nil)
	f.acct = testenv.Scalar[int64](t, d, `INSERT INTO accounts (name) VALUES ('a') RETURNING id`)
	f.sendID = sendingSend(t, d, f.acct, 3)
	return f
}

// sendingSend adds a sending quick send of n recipients for account acct and
// returns its id.
func sendingSend(tb testing.TB, d testenv.Database, acct int64, n int) int64 {
	return testenv.Scalar[int64](tb, d, `INSERT INTO sends (account_id, type, sender, text, status, recipients, expanded_at)
		VALUES ($1, 'quick', '3000', 'x', 'sending', $2, now()) RETURNING id`, acct, n)
}

func (f *matchFixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// recipient adds a sent recipient of parts parts with the given part states.
func (f *matchFixture) recipient(mobile string, parts int, states string, unknown bool) int64 {
	var id int64
	f.must(f.d.Pool.QueryRow(context.Background(), `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status,
		part_states, unknown, submitted_at) VALUES ($1, 0, $2, 'mci', $3, 230, 0, $4, $5, now()) RETURNING id`,
		f.sendID, mobile, parts, states, unknown).Scan(&id))
	return id
}

// id records a part's message id, accepted at `at`: in redis mode as a gateway
// does (the key and the recipient's msg_ids), in table mode as a message_ids row.
func (f *matchFixture) id(msgID string, recipient int64, part int, at time.Time) {
	if f.ids != nil {
		f.must(f.ids.Put(context.Background(), []send.AcceptedID{{Route: "mci", ID: msgID, Recipient: recipient, Part: int16(part), At: at}}))
		_, err := f.d.Pool.Exec(context.Background(), `UPDATE recipients SET msg_ids = (SELECT array_agg(CASE WHEN n = $3
			THEN $2 ELSE coalesce(msg_ids[n], '') END ORDER BY n) FROM generate_series(1, parts) AS n) WHERE id = $1`,
			recipient, msgID, part)
		f.must(err)
		return
	}
	_, err := f.d.Pool.Exec(context.Background(), `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part, created_at)
		VALUES ('mci', $1, $2, $3, $4, $5) ON CONFLICT (operator, msg_id) DO UPDATE SET recipient_id = EXCLUDED.recipient_id,
		part = EXCLUDED.part, stat = NULL, created_at = EXCLUDED.created_at`, msgID, recipient, f.sendID, part, at)
	f.must(err)
}

func (f *matchFixture) status(id int64) (status int16, unknown bool, states string) {
	f.must(f.d.Pool.QueryRow(context.Background(), `SELECT status, unknown, part_states FROM recipients WHERE id = $1`, id).
		Scan(&status, &unknown, &states))
	return status, unknown, states
}

// A reused id: the receipt of B's message comes while the id still names A's
// (older) message. It is not applied to A (another handset); it waits, and once
// B's id is recorded it is applied to B.
func TestReceiptConfirmedByHandset(t *testing.T) { inEachStore(t, testReceiptConfirmedByHandset) }

func testReceiptConfirmedByHandset(t *testing.T, f *matchFixture) {
	ctx := context.Background()
	a := f.recipient("989121110001", 1, "a", false)
	b := f.recipient("989121110002", 1, "a", false)
	f.id("77", a, 1, time.Now().Add(-time.Minute))
	got, err := f.s.ApplyReceipts(ctx, []send.Receipt{{Operator: "mci", MsgID: "77", Stat: send.StatDelivered, Mobile: "989121110002"}})
	f.must(err)
	if got.Pending != 1 || got.Delivered != 0 {
		t.Fatalf("receipt of another handset applied: %+v", got)
	}
	if st, _, _ := f.status(a); st != send.RcptSent {
		t.Fatalf("A's status %d, want untouched", st)
	}
	f.id("77", b, 1, time.Now())
	got, err = f.s.RetryPending(ctx)
	f.must(err)
	if got.Delivered != 1 {
		t.Fatalf("retry %+v", got)
	}
	if st, _, _ := f.status(b); st != send.RcptDelivered {
		t.Fatalf("B's status %d, want delivered", st)
	}
}

// The same handset twice (two sends to one number): a receipt received long
// before the id was recorded is an older message's, not this one's, and a
// receipt for an id past the retention window matches nothing; expired ids go.
func TestReceiptConfirmedBySubmitTime(t *testing.T) { inEachStore(t, testReceiptConfirmedBySubmitTime) }

func testReceiptConfirmedBySubmitTime(t *testing.T, f *matchFixture) {
	ctx := context.Background()
	r := f.recipient("989121110003", 1, "a", false)
	f.id("88", r, 1, time.Now())
	old := send.Receipt{Operator: "mci", MsgID: "88", Stat: send.StatUndelivered, Mobile: "989121110003",
		ReceivedAt: time.Now().Add(-time.Hour)}
	got, err := f.s.ApplyReceipts(ctx, []send.Receipt{old})
	f.must(err)
	if got.Pending != 1 || got.Failed != 0 {
		t.Fatalf("stale receipt applied: %+v", got)
	}
	f.s.IDRetention = 30 * time.Minute
	f.id("99", r, 1, time.Now().Add(-time.Hour))
	got, err = f.s.ApplyReceipts(ctx, []send.Receipt{{Operator: "mci", MsgID: "99", Stat: send.StatDelivered, Mobile: "989121110003"}})
	f.must(err)
	if got.Pending != 1 || got.Delivered != 0 {
		t.Fatalf("expired id matched: %+v", got)
	}
	n, err := f.s.ExpireMessageIDs(ctx, 100)
	f.must(err)
	if want := map[bool]int64{true: 0, false: 1}[f.ids != nil]; n != want { // Redis expires its keys itself
		t.Fatalf("expired %d ids, want %d", n, want)
	}
}

// Parts 2 and 3 of a 4-part recipient are unknown (their submit_sm_resp was
// lost). The receipts of the known parts come first; the recipient stays
// open and unknown; the two receipts with no recorded id are reconciled to its
// unknown parts by handset once they are a few seconds old, and then it is final.
func TestUnknownPartsReconciled(t *testing.T) { inEachStore(t, testUnknownPartsReconciled) }

func testUnknownPartsReconciled(t *testing.T, f *matchFixture) {
	ctx := context.Background()
	r := f.recipient("989121110004", 4, "a??a", true)
	f.id("k1", r, 1, time.Now())
	f.id("k4", r, 4, time.Now())
	got, err := f.s.ApplyReceipts(ctx, []send.Receipt{
		{Operator: "mci", MsgID: "k1", Stat: send.StatDelivered, Mobile: "989121110004"},
		{Operator: "mci", MsgID: "k4", Stat: send.StatDelivered, Mobile: "989121110004"},
	})
	f.must(err)
	if st, unknown, _ := f.status(r); got.Delivered != 0 || st != send.RcptTelecom || !unknown {
		t.Fatalf("after the known parts: %+v, status %d unknown %v", got, st, unknown)
	}
	got, err = f.s.ApplyReceipts(ctx, []send.Receipt{
		{Operator: "mci", MsgID: "u2", Stat: send.StatDelivered, Mobile: "989121110004"},
		{Operator: "mci", MsgID: "u3", Stat: send.StatDelivered, Mobile: "989121110004"},
	})
	f.must(err)
	if got.Pending != 2 {
		t.Fatalf("unknown parts' receipts %+v", got)
	}
	// Fresh, they may yet match a recorded id: not offered to unknown parts.
	got, err = f.s.RetryPending(ctx)
	f.must(err)
	if _, _, states := f.status(r); got.Delivered != 0 || states != "d??d" {
		t.Fatalf("fresh receipts reconciled: %+v, parts %q", got, states)
	}
	_, err = f.d.Pool.Exec(ctx, `UPDATE pending_receipts SET received_at = received_at - interval '10 seconds'`)
	f.must(err)
	got, err = f.s.RetryPending(ctx)
	f.must(err)
	if st, unknown, states := f.status(r); got.Delivered != 1 || st != send.RcptDelivered || unknown || states != "dddd" {
		t.Fatalf("reconciled: %+v, status %d unknown %v parts %q", got, st, unknown, states)
	}
	var ids []string
	f.must(f.d.Pool.QueryRow(ctx, `SELECT coalesce(msg_ids, '{}') FROM recipients WHERE id = $1`, r).Scan(&ids))
	if want := "k1 u2 u3 k4"; f.ids != nil && strings.Join(ids, " ") != want {
		t.Fatalf("the recipient's ids %q, want %q", ids, want)
	}
}

// A receipt that overtook its submit response and names the id in another form
// (a carrier writing the hex id in decimal): it waits in pending_receipts with
// every key it may match by, and once the id is recorded the retry applies it by
// the other key. Found by the chaos suite: pending receipts matched only their
// first key and were dropped after SWEEP_NO_RECEIPT.
func TestPendingReceiptMatchedByAnotherKey(t *testing.T) {
	inEachStore(t, testPendingReceiptMatchedByAnotherKey)
}

func testPendingReceiptMatchedByAnotherKey(t *testing.T, f *matchFixture) {
	ctx := context.Background()
	a := f.recipient("989121110009", 1, "a", false)
	r := send.Receipt{Operator: "mci", MsgID: "2271560481", AltIDs: []string{"87654321"}, Stat: send.StatDelivered,
		Mobile: "989121110009", ReceivedAt: time.Now()}
	got, err := f.s.ApplyReceipts(ctx, []send.Receipt{r})
	f.must(err)
	if got.Pending != 1 {
		t.Fatalf("a receipt before its id: %+v, want it pending", got)
	}
	f.id("87654321", a, 1, time.Now())
	got, err = f.s.RetryPending(ctx)
	f.must(err)
	if got.Delivered != 1 || got.Matched != 1 {
		t.Fatalf("retry by the other key: %+v, want the recipient delivered (one late match)", got)
	}
	if st, _, _ := f.status(a); st != send.RcptDelivered {
		t.Fatalf("status %d, want delivered", st)
	}
	var left int
	f.must(f.d.Pool.QueryRow(ctx, `SELECT count(*) FROM pending_receipts`).Scan(&left))
	if left != 0 {
		t.Fatalf("%d receipts still pending", left)
	}
}

// The receipts' lookup probes message_ids by each key and the handset's
// recipients by their number, whatever the batch. Written as msg_id = ANY(keys),
// the planner ANDed in the created_at BRIN index: a scan of every block range of
// the retention window for each receipt, 25 times slower on the test bed's 1.4
// million ids and growing with the table.
func TestLookupProbesEachKey(t *testing.T) {
	f := newMatchFixture(t)
	ctx := context.Background()
	a := f.recipient("989121110009", 1, "a", false)
	_, err := f.d.Pool.Exec(ctx, `INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part, created_at)
		SELECT 'mci', 'm' || g, $1, $2, 1, now() - interval '1 hour' + g * interval '10 ms' FROM generate_series(1, 200000) g`,
		a, f.sendID)
	f.must(err)
	_, err = f.d.Pool.Exec(ctx, `ANALYZE message_ids; ANALYZE recipients`)
	f.must(err)
	const n = 100
	ops, ids, mobiles := make([]string, n), make([]string, n), make([]string, n)
	grps, rids, parts, at := make([]int32, n), make([]int64, n), make([]int16, n), make([]time.Time, n)
	for i := range n {
		ops[i], ids[i], mobiles[i], grps[i], at[i] = "mci", fmt.Sprint("m", 199900+i), "989121110009", int32(i), time.Now()
	}
	var plan []string
	rows, err := f.d.Pool.Query(ctx, `EXPLAIN `+send.LookupSQL, ops, ids, grps, mobiles, at, 72*time.Hour, rids, parts, at)
	f.must(err)
	for rows.Next() {
		var line string
		f.must(rows.Scan(&line))
		plan = append(plan, line)
	}
	f.must(rows.Err())
	text := strings.Join(plan, "\n")
	if strings.Contains(text, "brin") || strings.Contains(text, "Seq Scan on message_ids") ||
		!strings.Contains(text, "message_ids_pkey") || !strings.Contains(text, "mobile") {
		t.Fatalf("the lookup should probe message_ids_pkey by each key and the recipients by number:\n%s", text)
	}
}

// Each part's receipt is applied once, recorded on its recipient's part states: a
// repeated final receipt changes nothing, also in a batch with a new part's receipt
// (which is applied), a later receipt of another state does not turn a final part
// over, and the report of an earlier release's receipt (message_ids.stat) stays final.
func TestPartReceiptAppliedOnce(t *testing.T) {
	f := newMatchFixture(t)
	ctx := context.Background()
	const mobile = "989121110009"
	r := f.recipient(mobile, 3, "aaa", false)
	for p, k := range []string{"p1", "p2", "p3"} {
		f.id(k, r, p+1, time.Now())
	}
	rc := func(id string, st int16) send.Receipt {
		return send.Receipt{Operator: "mci", MsgID: id, Stat: st, Mobile: mobile, State: "UNDELIV"}
	}
	apply := func(rs ...send.Receipt) send.Applied {
		t.Helper()
		got, err := f.s.ApplyReceipts(ctx, rs)
		f.must(err)
		return got
	}
	apply(rc("p1", send.StatDelivered))
	apply(rc("p1", send.StatDelivered), rc("p2", send.StatUndelivered))
	apply(rc("p2", send.StatDelivered), rc("p1", send.StatUndelivered))
	var pd, pf int16
	f.must(f.d.Pool.QueryRow(ctx, `SELECT parts_delivered, parts_failed FROM recipients WHERE id = $1`, r).Scan(&pd, &pf))
	if st, _, states := f.status(r); st != send.RcptTelecom || states != "dfa" || pd != 1 || pf != 1 {
		t.Fatalf("after repeats: status %d parts %q delivered %d failed %d", st, states, pd, pf)
	}
	// An earlier release marked part 3's id final: its receipt is not applied again.
	_, err := f.d.Pool.Exec(ctx, `UPDATE message_ids SET stat = 2 WHERE msg_id = 'p3'`)
	f.must(err)
	if got := apply(rc("p3", send.StatDelivered)); got.Delivered+got.Failed != 0 || got.Pending != 0 {
		t.Fatalf("a part final on its id: %+v", got)
	}
	_, err = f.d.Pool.Exec(ctx, `UPDATE message_ids SET stat = NULL WHERE msg_id = 'p3'`)
	f.must(err)
	if got := apply(rc("p3", send.StatDelivered)); got.Failed != 1 {
		t.Fatalf("the last part: %+v", got)
	}
	if st, _, states := f.status(r); st != send.RcptUndelivered || states != "dfd" {
		t.Fatalf("final: status %d parts %q", st, states)
	}
}

// Redis lost the id store's keys (a flush, a failover to a replica behind): a
// receipt is matched on its handset's recipients by the ids the outcome wrote on
// them (msg_ids), part by part; a reused id goes to the handset's newest message
// sent before the receipt came; a receipt from another handset matches nothing and
// waits; a receipt that overtook its id waits, and the retry applies it once the
// id is recorded.
func TestLostKeyMatchedByHandset(t *testing.T) {
	f := newMatchFixture(t)
	f.withIDStore()
	ctx := context.Background()
	const mobile = "989121110010"
	two := f.recipient(mobile, 2, "aa", false)
	f.id("x1", two, 1, time.Now())
	f.id("x2", two, 2, time.Now())
	older := f.recipient(mobile, 1, "a", false)
	f.id("r1", older, 1, time.Now())
	_, err := f.d.Pool.Exec(ctx, `UPDATE recipients SET submitted_at = now() - interval '1 hour' WHERE id = $1`, older)
	f.must(err)
	newer := f.recipient(mobile, 1, "a", false)
	f.id("r1", newer, 1, time.Now())
	f.must(f.rdb.Client.FlushDB(ctx).Err())

	got, err := f.s.ApplyReceipts(ctx, []send.Receipt{
		{Operator: "mci", MsgID: "x2", Stat: send.StatDelivered, Mobile: mobile},
		{Operator: "mci", MsgID: "r1", Stat: send.StatDelivered, Mobile: "0" + mobile[2:]},
		{Operator: "mci", MsgID: "x1", Stat: send.StatDelivered, Mobile: "989121119999"},
	})
	f.must(err)
	if got.Delivered != 1 || got.Pending != 1 {
		t.Fatalf("lost keys: %+v, want the newer recipient delivered and another handset's receipt pending", got)
	}
	if _, _, states := f.status(two); states != "ad" {
		t.Fatalf("two-part recipient's parts %q, want part 2 delivered", states)
	}
	if st, _, _ := f.status(older); st != send.RcptSent {
		t.Fatalf("the older message with the reused id: status %d, want untouched", st)
	}
	if st, _, _ := f.status(newer); st != send.RcptDelivered {
		t.Fatalf("the newer message: status %d, want delivered", st)
	}

	early := f.recipient("989121110011", 1, "a", false)
	got, err = f.s.ApplyReceipts(ctx, []send.Receipt{{Operator: "mci", MsgID: "e1", Stat: send.StatUndelivered, Mobile: "989121110011"}})
	f.must(err)
	if got.Pending != 1 {
		t.Fatalf("a receipt before its id: %+v, want it pending", got)
	}
	f.id("e1", early, 1, time.Now())
	f.must(f.rdb.Client.FlushDB(ctx).Err())
	got, err = f.s.RetryPending(ctx)
	f.must(err)
	if got.Failed != 1 {
		t.Fatalf("retry by handset: %+v, want the recipient failed", got)
	}
}

// Pending receipts that never match (ids of another system) come first in key
// order and fill a retry pass: the passes walk on from where the last one stopped,
// so the receipt after them is applied within a round of passes.
func TestPendingWalkReachesEveryReceipt(t *testing.T) {
	f := newMatchFixture(t)
	send.SetPendingBatch(t, 2)
	ctx := context.Background()
	r := f.recipient("989121110012", 1, "a", false)
	_, err := f.d.Pool.Exec(ctx, `INSERT INTO pending_receipts (operator, msg_id, alt_ids, stat, mobile, received_at)
		SELECT 'mci', 'a' || g, '{}', 2, '989121119999', now() FROM generate_series(1, 5) g`)
	f.must(err)
	_, err = f.s.ApplyReceipts(ctx, []send.Receipt{{Operator: "mci", MsgID: "z9", Stat: send.StatDelivered, Mobile: "989121110012"}})
	f.must(err)
	f.id("z9", r, 1, time.Now().Add(-time.Second))
	delivered := 0
	for range 3 { // 6 receipts, 2 a pass
		got, err := f.s.RetryPending(ctx)
		f.must(err)
		delivered += got.Delivered
	}
	if st, _, _ := f.status(r); delivered != 1 || st != send.RcptDelivered {
		t.Fatalf("after a round of passes: %d delivered, status %d", delivered, st)
	}
}

// The id store keeps an hour's ids in one hash: a receipt is looked for in the
// hours of the last one or two; one whose part is older is matched by its handset
// in PostgreSQL, or, without a handset, in the older hours, the newest first (an
// id reused hours later names the newer part).
func TestIDStoreHours(t *testing.T) {
	f := newMatchFixture(t)
	f.withIDStore()
	ctx := context.Background()
	old := f.recipient("989121110013", 1, "a", false)
	f.id("h1", old, 1, time.Now().Add(-5*time.Hour))
	older := f.recipient("989121110014", 1, "a", false)
	f.id("h2", older, 1, time.Now().Add(-6*time.Hour))
	newer := f.recipient("989121110015", 1, "a", false)
	f.id("h2", newer, 1, time.Now().Add(-3*time.Hour))
	got, err := f.s.ApplyReceipts(ctx, []send.Receipt{
		{Operator: "mci", MsgID: "h1", Stat: send.StatDelivered, Mobile: "989121110013"},
		{Operator: "mci", MsgID: "h2", Stat: send.StatDelivered},
	})
	f.must(err)
	if got.Delivered != 2 {
		t.Fatalf("parts hours old: %+v, want both delivered", got)
	}
	for id, want := range map[int64]int16{old: send.RcptDelivered, older: send.RcptSent, newer: send.RcptDelivered} {
		if st, _, _ := f.status(id); st != want {
			t.Fatalf("recipient %d: status %d, want %d", id, st, want)
		}
	}
	if n, err := f.rdb.Client.Keys(ctx, "mid:mci:*").Result(); err != nil || len(n) != 3 {
		t.Fatalf("hashes %v (%v), want one an hour", n, err)
	}
}
