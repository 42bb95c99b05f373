package inbound

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/platform/lease"
	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/metrics"
	"github.com/chapar/chapar/pkg/send"
)

// A batch is applied once its newest entry is Settle old, and never waits longer
// than Settle (a Redis clock ahead of ours cannot stall the consumer). The wait
// is computed, not timed: a loaded machine cannot make this test fail.
func TestSettle(t *testing.T) {
	now := time.Now()
	id := func(at time.Time) string { return strconv.FormatInt(at.UnixMilli(), 10) + "-0" }
	for _, c := range []struct {
		name string
		id   string
		want time.Duration
	}{
		{"old entry", id(now.Add(-time.Second)), 0},
		{"fresh entry", id(now.Add(-30 * time.Millisecond)), Settle - 30*time.Millisecond},
		{"entry from the future", id(now.Add(time.Hour)), Settle},
		{"not an entry id", "x-1", 0},
	} {
		// Entry ids carry milliseconds: the wait is exact to the millisecond.
		if got := waitFor(c.id, Settle, now); (got - c.want).Abs() >= time.Millisecond {
			t.Errorf("%s: wait %s, want %s", c.name, got, c.want)
		}
	}
}

// Two consumers of one worker drain the stream together: every receipt is
// applied once (the send's counters are exact), whether written packed or one
// field a value, MO messages reach the inbox, and every entry is acknowledged and
// deleted.
func TestConsumersDrainStream(t *testing.T) {
	d, r, must := setup(t)
	ctx := context.Background()
	const n = 3000
	var acct, sendID int64
	must(d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('inbound') RETURNING id`).Scan(&acct))
	_, err := d.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind) VALUES ($1, '30001234', 'service')`, acct)
	must(err)
	must(d.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, recipients, expanded_at)
		VALUES ($1, 'quick', '30001234', 'x', 'sending', $2, now()) RETURNING id`, acct, n).Scan(&sendID))
	_, err = d.Pool.Exec(ctx, `WITH r AS (
			INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
			SELECT $1, 0, '98935' || lpad(g::text, 7, '0'), 'irancell', 1, 249, 0 FROM generate_series(1, $2::int) g RETURNING id, mobile)
		INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part) SELECT 'irancell', 'm' || r.mobile, r.id, $1, 1 FROM r`,
		sendID, n)
	must(err)
	pipe := r.Client.Pipeline()
	for i := 1; i <= n; i++ {
		mobile := fmt.Sprintf("98935%07d", i)
		stat := gateway.StatDelivered
		if i%10 == 0 {
			stat = gateway.StatFailed
		}
		for k := range 1 + i%2 { // every other receipt twice, as after an SMSC redelivery
			in := gateway.Inbound{Kind: gateway.KindReceipt, Operator: "irancell", MsgID: "m" + mobile,
				Stat: stat, Mobile: mobile, Line: "30001234", ReceivedAt: time.Now()}
			if (i+k)%2 == 0 { // half of them packed, as a gateway writes them after the switch
				pipe.XAdd(ctx, &redis.XAddArgs{Stream: jobs.InboundStream, Values: in.Packed()})
			} else {
				pipe.XAdd(ctx, xadd(in))
			}
		}
	}
	pipe.XAdd(ctx, xadd(gateway.Inbound{Kind: gateway.KindMO, Operator: "irancell", Mobile: "989351112233",
		Line: "30001234", Text: "سلام", ReceivedAt: time.Now()}))
	_, err = pipe.Exec(ctx)
	must(err)

	consumeUntil(t, d, r, 2, 200, 60*time.Second, func() (bool, string) {
		left, err := r.Client.XLen(ctx, jobs.InboundStream).Result()
		must(err)
		var deltas int
		must(d.Pool.QueryRow(ctx, `SELECT count(*) FROM send_count_deltas`).Scan(&deltas))
		// The lead consumer folds the counters' changes into the send, and
		// announces the send to the live publisher.
		dirty, err := r.Client.SIsMember(ctx, jobs.DirtySends, sendID).Result()
		must(err)
		return left == 0 && deltas == 0 && dirty,
			fmt.Sprintf("%d entries left in the stream, %d counter changes, send announced %v", left, deltas, dirty)
	})
	consumers, err := r.Client.XInfoConsumers(ctx, jobs.InboundStream, jobs.InboundGroup).Result()
	must(err)
	if len(consumers) != 2 {
		t.Fatalf("%d consumers in the group, want 2", len(consumers))
	}
	var delivered, undelivered, reached, notReached, inbox int
	must(d.Pool.QueryRow(ctx, `SELECT s.delivered, s.undelivered,
		(SELECT count(*) FROM recipients WHERE send_id = s.id AND status = 2),
		(SELECT count(*) FROM recipients WHERE send_id = s.id AND status = 3),
		(SELECT count(*) FROM inbox WHERE account_id = s.account_id)
		FROM sends s WHERE s.id = $1`, sendID).Scan(&delivered, &undelivered, &reached, &notReached, &inbox))
	if delivered != n-n/10 || undelivered != n/10 || reached != delivered || notReached != undelivered || inbox != 1 {
		t.Fatalf("counters %d/%d, recipients %d/%d, inbox %d; want %d/%d and 1 MO",
			delivered, undelivered, reached, notReached, inbox, n-n/10, n/10)
	}
}

func xadd(in gateway.Inbound) *redis.XAddArgs {
	return &redis.XAddArgs{Stream: jobs.InboundStream, Values: in.Values()}
}

// setup is a test's database and Redis, and a check that fails it on an error.
func setup(t *testing.T) (testenv.Database, testenv.Redis, func(error)) {
	return testenv.Postgres(t), testenv.RedisDB(t), func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// sentTo is a sending send of n Irancell recipients (98935000000g), each with a
// part whose message id is prefix+mobile, recorded a minute ago; it returns the
// send's id.
func sentTo(t *testing.T, d testenv.Database, n int, prefix string) int64 {
	t.Helper()
	ctx := context.Background()
	var sendID int64
	err := d.Pool.QueryRow(ctx, `WITH a AS (INSERT INTO accounts (name) VALUES ($1) RETURNING id)
		INSERT INTO sends (account_id, type, sender, text, status, recipients, expanded_at)
		SELECT a.id, 'quick', '30001234', 'x', 'sending', $2, now() FROM a RETURNING id`, "inbound-"+prefix, n).Scan(&sendID)
	if err == nil {
		_, err = d.Pool.Exec(ctx, `WITH r AS (
				INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
				SELECT $1, 0, '98935000000' || g, 'irancell', 1, 249, 0 FROM generate_series(1, $2::int) g RETURNING id, mobile)
			INSERT INTO message_ids (operator, msg_id, recipient_id, send_id, part, created_at)
			SELECT 'irancell', $3 || r.mobile, r.id, $1, 1, now() - interval '1 minute' FROM r`, sendID, n, prefix)
	}
	if err != nil {
		t.Fatal(err)
	}
	return sendID
}

// Entries the group has delivered but no consumer holds (a Redis restart kept
// the group's last-delivered id and lost the pending list) are taken over by
// the lead and applied; entries a consumer still holds are left to it.
func TestOrphanedEntriesApplied(t *testing.T) {
	d, r, must := setup(t)
	ctx := context.Background()
	sendID := sentTo(t, d, 3, "o")
	old := time.Now().Add(-time.Minute).UnixMilli()
	for i := 1; i <= 3; i++ {
		mobile := fmt.Sprintf("98935000000%d", i)
		args := xadd(gateway.Inbound{Kind: gateway.KindReceipt, Operator: "irancell", MsgID: "o" + mobile,
			Stat: gateway.StatDelivered, Mobile: mobile, Line: "30001234", ReceivedAt: time.Now().Add(-time.Minute)})
		args.ID = fmt.Sprintf("%d-%d", old, i)
		must(r.Client.XAdd(ctx, args).Err())
	}
	// The group has read past all three, and none is pending: orphans.
	must(r.Client.XGroupCreate(ctx, jobs.InboundStream, jobs.InboundGroup, "$").Err())
	if n, _ := r.Client.XLen(ctx, jobs.InboundStream).Result(); n != 3 {
		t.Fatalf("%d entries, want 3", n)
	}
	consumeUntil(t, d, r, 1, 100, 20*time.Second, func() (bool, string) {
		var reached int
		must(d.Pool.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 2`, sendID).Scan(&reached))
		left, _ := r.Client.XLen(ctx, jobs.InboundStream).Result()
		return reached == 3 && left == 0, fmt.Sprintf("%d of 3 orphaned receipts applied", reached)
	})
}

// A worker killed holding entries it read: the lead takes them over once the
// dead process's members have been idle DeadAfter (not stragglerAge, 30 s) and
// applies them; a live process's entries stay with it however long it holds
// them.
func TestDeadWorkersEntriesTakenOver(t *testing.T) {
	d, r, must := setup(t)
	ctx := context.Background()
	sendID := sentTo(t, d, 4, "d")
	must(r.Client.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err())
	for i := 1; i <= 4; i++ {
		mobile := fmt.Sprintf("98935000000%d", i)
		must(r.Client.XAdd(ctx, xadd(gateway.Inbound{Kind: gateway.KindReceipt, Operator: "irancell", MsgID: "d" + mobile,
			Stat: gateway.StatDelivered, Mobile: mobile, Line: "30001234", ReceivedAt: time.Now()})).Err())
	}
	read := func(member string, n int64) {
		must(r.Client.XReadGroup(ctx, &redis.XReadGroupArgs{Group: jobs.InboundGroup, Consumer: member,
			Streams: []string{jobs.InboundStream, ">"}, Count: n}).Err())
	}
	read("deadhost-101-0", 3)
	read("livehost-202-1", 1)
	alive := func(o *Consumer) {
		o.DeadAfter = 200 * time.Millisecond
		o.Alive = func(context.Context) (map[string]bool, error) { return map[string]bool{"livehost-202": true}, nil }
	}
	// Well inside stragglerAge: only the dead process's takeover can apply them.
	// Until the three are applied and acknowledged (the acknowledgement follows the
	// transaction's commit: the consumer keeps running until both are seen).
	consumeUntil(t, d, r, 1, 100, 2*time.Minute, func() (bool, string) {
		var reached int
		must(d.Pool.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 2`, sendID).Scan(&reached))
		p, err := r.Client.XPending(ctx, jobs.InboundStream, jobs.InboundGroup).Result()
		must(err)
		return reached == 3 && p.Count == 1, fmt.Sprintf("%d of the dead worker's 3 receipts applied, %d entries pending", reached, p.Count)
	}, alive)
	held, err := r.Client.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: jobs.InboundStream, Group: jobs.InboundGroup,
		Start: "-", End: "+", Count: 10}).Result()
	must(err)
	if len(held) != 1 || held[0].Consumer != "livehost-202-1" {
		t.Fatalf("pending after the takeover: %+v, want only the live worker's entry", held)
	}
}

// A worker without the fleet's lease leaves the stream to the lead's members
// while it is short, and helps once more than three batches wait.
func TestFollowerHelpsOnlyWhenBehind(t *testing.T) {
	d, r, must := setup(t)
	ctx := context.Background()
	const key = "inbound-test:lead"
	if ok, err := lease.Keep(ctx, r.Client, key, "the-lead", time.Minute); err != nil || !ok {
		t.Fatalf("lease for the lead: %v %v", ok, err)
	}
	sendID := sentTo(t, d, 10, "f")
	for i := 1; i <= 10; i++ {
		mobile := fmt.Sprintf("98935000000%d", i)
		must(r.Client.XAdd(ctx, xadd(gateway.Inbound{Kind: gateway.KindReceipt, Operator: "irancell", MsgID: "f" + mobile,
			Stat: gateway.StatDelivered, Mobile: mobile, Line: "30001234", ReceivedAt: time.Now()})).Err())
	}
	follower := func(batch int) func(*Consumer) {
		return func(c *Consumer) {
			c.Lead = &lease.Lead{RDB: r.Client, Key: key, Token: "follower"}
			c.Batch = batch
		}
	}
	// 10 entries, batches of 4: the lead's members can hold them; the follower waits.
	stop := time.Now().Add(1500 * time.Millisecond)
	consumeUntil(t, d, r, 1, 4, 5*time.Second, func() (bool, string) { return time.Now().After(stop), "" }, follower(4))
	var reached int
	must(d.Pool.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 2`, sendID).Scan(&reached))
	if n, _ := r.Client.XLen(ctx, jobs.InboundStream).Result(); reached != 0 || n != 10 {
		t.Fatalf("the follower applied %d receipts (%d entries left) while the stream was short", reached, n)
	}
	// Batches of 3: more than three wait, and it helps.
	consumeUntil(t, d, r, 1, 3, 20*time.Second, func() (bool, string) {
		must(d.Pool.QueryRow(ctx, `SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 2`, sendID).Scan(&reached))
		return reached >= 3, fmt.Sprintf("the follower applied %d receipts of a stream three batches long", reached)
	}, follower(3))
}

// consumeUntil runs a consumer of n members on the test's database and Redis
// until done reports true, failing with its message after timeout.
func consumeUntil(t *testing.T, d testenv.Database, r testenv.Redis, n, batch int, timeout time.Duration, done func() (bool, string),
	opts ...func(*Consumer)) {
	t.Helper()
	c := &Consumer{RDB: r.Client, Pool: d.Pool, Sends: send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil), Inbox: inbox.New(d.Pool),
		Name: "test", Consumers: n, Batch: batch}
	for _, o := range opts {
		o(c)
	}
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	deadline := time.Now().Add(timeout)
	for {
		ok, msg := done()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatal(msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
}

// Stream ids compare by time, then sequence; a bare time means its first id.
func TestIDBefore(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"5-1", "5-2", true}, {"5-2", "5-1", false}, {"4-9", "5-0", true}, {"10-0", "9-5", false}, {"5-0", "6", true}, {"6-1", "6", false}} {
		if got := idBefore(c.a, c.b); got != c.want {
			t.Errorf("idBefore(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

// A member tops a small read up with what arrives until its oldest entry is
// Gather old, does not wait once it holds GatherMin entries, and applies a read
// of fewer than GatherFrom entries (a quiet stream) at once. Each batch of
// entries is added in one pipeline, and the wait is measured from the oldest
// entry's id, as gather measures it, so a loaded machine does not fail the test;
// "at once" is checked as reading nothing more, not by the clock.
func TestGather(t *testing.T) {
	r := testenv.RedisDB(t)
	ctx := context.Background()
	if err := r.Client.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err(); err != nil {
		t.Fatal(err)
	}
	add := func(n int) {
		_, err := r.Client.Pipelined(ctx, func(p redis.Pipeliner) error {
			for range n {
				p.XAdd(ctx, &redis.XAddArgs{Stream: jobs.InboundStream, Values: []any{"k", "v"}})
			}
			return nil
		})
		if err != nil {
			t.Errorf("xadd: %v", err)
		}
	}
	c := &Consumer{RDB: r.Client, Batch: 5000}
	read := func(block time.Duration) []redis.XMessage {
		res, err := r.Client.XReadGroup(ctx, &redis.XReadGroupArgs{Group: jobs.InboundGroup, Consumer: "t",
			Streams: []string{jobs.InboundStream, ">"}, Count: 5000, Block: block}).Result()
		if errors.Is(err, redis.Nil) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Messages
	}

	add(GatherFrom)
	first := read(time.Second)
	oldest, _ := idTime(first[0].ID)
	added := make(chan time.Time)
	go func() {
		time.Sleep(Gather / 4)
		add(5)
		added <- time.Now()
	}()
	msgs := c.gather(ctx, "t", first)
	end, el := time.Now(), time.Since(oldest)
	lateAt := <-added
	if el < Gather-2*time.Millisecond || el > Gather+2*time.Second {
		t.Errorf("small read: gathered until its oldest entry was %s old, want about %s", el, Gather)
	}
	// The five entries count when they came before the wait's end (a loaded machine may add them later).
	if lateAt.Before(end.Add(-10*time.Millisecond)) && len(msgs) != GatherFrom+5 {
		t.Errorf("small read: %d entries, want %d", len(msgs), GatherFrom+5)
	}
	read(-1) // what came after the wait, before the next case

	// "At once" is that gather reads nothing more: five entries added after the
	// read are left in the stream for the next one, however busy the machine.
	for _, c2 := range []struct {
		name string
		n    int
	}{{"quiet stream", GatherFrom - 1}, {"full read", GatherMin}} {
		add(c2.n)
		first := read(time.Second)
		add(5)
		if msgs = c.gather(ctx, "t", first); len(msgs) != c2.n {
			t.Errorf("%s: %d entries, want the %d read, at once", c2.name, len(msgs), c2.n)
		}
		if left := read(-1); len(left) != 5 {
			t.Errorf("%s: %d entries left for the next read, want 5", c2.name, len(left))
		}
	}
}

// PostgreSQL refuses one MO of a batch for its data (here a trigger stands for
// whatever it may refuse): the batch is applied in halves down to that entry,
// which is quarantined with its raw bytes and the reason; every other entry is
// applied, and the stream is left empty.
func TestRefusedEntryQuarantined(t *testing.T) {
	d, r, must := setup(t)
	ctx := context.Background()
	var acct int64
	must(d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('refused') RETURNING id`).Scan(&acct))
	_, err := d.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind) VALUES ($1, '30001234', 'service')`, acct)
	must(err)
	_, err = d.Pool.Exec(ctx, `CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NEW.text = 'poison' THEN RAISE EXCEPTION 'refused' USING ERRCODE = 'invalid_text_representation'; END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER refuse_poison BEFORE INSERT ON inbox FOR EACH ROW EXECUTE FUNCTION refuse_poison()`)
	must(err)
	pipe := r.Client.Pipeline()
	for i, text := range []string{"one", "two", "poison", "three", "four", "five", "six"} {
		pipe.XAdd(ctx, xadd(gateway.Inbound{Kind: gateway.KindMO, Operator: "mci", Mobile: fmt.Sprintf("98912100000%d", i),
			Line: "30001234", Text: text, ReceivedAt: time.Now()}))
	}
	_, err = pipe.Exec(ctx)
	must(err)
	reg := prometheus.NewRegistry()
	consumeUntil(t, d, r, 1, 100, 60*time.Second, func() (bool, string) {
		left, err := r.Client.XLen(ctx, jobs.InboundStream).Result()
		must(err)
		return left == 0, fmt.Sprintf("%d entries left in the stream", left)
	}, func(c *Consumer) { c.Metrics = reg })
	var stored int
	var raw []byte
	var reason string
	must(d.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM inbox WHERE account_id = $1), raw, reason FROM inbound_quarantine`, acct).
		Scan(&stored, &raw, &reason))
	if stored != 6 || !strings.Contains(string(raw), "text=poison\n") || !strings.Contains(reason, "refused") {
		t.Fatalf("stored %d, quarantined %q for %q", stored, raw, reason)
	}
	if got := counted(t, reg, "chapar_inbound_quarantined_total", ""); got != 1 {
		t.Fatalf("quarantine counter at %v", got)
	}
	if got := counted(t, reg, "chapar_inbound_entries_total", "mo"); got != 6 {
		t.Fatalf("%v MO entries counted as applied, want 6", got)
	}
}

// counted is the value of a counter of reg with the label kind (none: "").
func counted(t *testing.T, reg *prometheus.Registry, name, kind string) float64 {
	t.Helper()
	labels := map[string]string{}
	if kind != "" {
		labels["kind"] = kind
	}
	v, err := metrics.Value(reg, name, labels)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
