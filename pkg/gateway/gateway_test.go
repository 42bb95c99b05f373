package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/sms"
)

// A batch of 1,000 recipients with a two-part Persian text goes through a
// real asynq server: every recipient is sent with two message ids, each
// handset shows the reassembled text, the send's counters move, and every
// receipt lands in the stream with a message id recorded for that handset.
//
// In each id store (migrations/0199): redis (the key mid:<route>:<id>) and table
// (a message_ids row, as the previous release reads them); both write the ids on
// the recipient.
func TestBatchEndToEnd(t *testing.T) {
	for _, mode := range []string{send.IDsRedis, send.IDsTable} {
		t.Run(mode, func(t *testing.T) { batchEndToEnd(t, mode) })
	}
}

func batchEndToEnd(t *testing.T, mode string) {
	e := newEnv(t, smscsim.Config{}) // immediate receipts, all DELIVRD
	if err := send.SetIDStoreMode(e.ctx(), e.db.Pool, mode); err != nil {
		t.Fatal(err)
	}
	g := e.start(e.config(nil), nil)

	const n = 1000
	sendID := e.createSend(persian2, true, "queued")
	e.addRecipients(sendID, 1, n, 1, "98912", "mci", 2)
	composed := sms.Compose(persian2, true)
	if c := sms.Count(persian2, true); c.Parts != 2 {
		t.Fatalf("test text has %d parts, want 2", c.Parts)
	}
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"}, "")

	waitFor(t, 30*time.Second, "all recipients sent", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == n
	})
	if u := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND (unknown OR parts_failed <> 0 OR submitted_at IS NULL)`, sendID); u != 0 {
		t.Fatalf("%d recipients unknown, with failed parts or without submitted_at", u)
	}
	ids := e.recordedIDs(sendID)
	if c := countIDs(ids, func(x recordedID) bool { return x.route == "mci" }); c != 2*n {
		t.Fatalf("%d message ids, want %d", c, 2*n)
	}
	parts := map[int64]int{}
	for _, x := range ids {
		parts[x.recipient] |= 1 << x.part
	}
	if c := countIDs(ids, func(x recordedID) bool { return x.part == 1 && parts[x.recipient] == 0b110 }); c != n {
		t.Fatalf("%d recipients with parts 1 and 2, want %d", c, n)
	}
	sc := e.sendCounters(sendID)
	if sc.Submitted != n || sc.Rejected != 0 || sc.Status != "sending" {
		t.Fatalf("send counters %+v", sc)
	}

	// What the handsets received.
	st := e.sim.Stats()
	if st.Total.Accepted != 2*n || st.Duplicates != 0 {
		t.Fatalf("simulator accepted %d, duplicates %d", st.Total.Accepted, st.Duplicates)
	}
	rows, err := e.db.Pool.Query(e.ctx(), `SELECT id, mobile FROM recipients WHERE send_id = $1`, sendID)
	if err != nil {
		t.Fatal(err)
	}
	mobiles := map[int64]string{}
	for rows.Next() {
		var id int64
		var m string
		if err := rows.Scan(&id, &m); err != nil {
			t.Fatal(err)
		}
		mobiles[id] = m
	}
	rows.Close()
	for id, m := range mobiles {
		got := e.sim.Messages(m)
		if len(got) != 1 || got[0].Text != composed || got[0].Parts != 2 || got[0].From != "30001234" {
			t.Fatalf("handset %s received %+v", m, got)
		}
		if got[0].Ref == nil || *got[0].Ref != int(byte(id)) {
			t.Fatalf("handset %s: reference %v, want %d (low byte of recipient %d)", m, got[0].Ref, byte(id), id)
		}
	}

	// Receipts: one per part, each for a recorded id of the same handset.
	waitFor(t, 30*time.Second, "2,000 receipts in the stream", func() bool { return e.streamLen() >= 2*n })
	owner := map[string]string{} // msg_id -> mobile
	for _, x := range ids {
		owner[x.id] = mobiles[x.recipient]
	}
	seen := map[string]bool{}
	for _, in := range e.streamEntries() {
		if in.Kind != KindReceipt {
			t.Fatalf("unexpected entry %+v", in)
		}
		if in.Operator != "mci" || in.Stat != StatDelivered || in.State != "DELIVRD" || in.Line != "30001234" {
			t.Fatalf("receipt %+v", in)
		}
		if m, ok := owner[in.MsgID]; !ok || m != in.Mobile {
			t.Fatalf("receipt %s for %s: recorded for %q (%v)", in.MsgID, in.Mobile, m, ok)
		}
		if time.Since(in.ReceivedAt) > time.Minute {
			t.Fatalf("received_at %v", in.ReceivedAt)
		}
		seen[in.MsgID] = true
	}
	if len(seen) != 2*n {
		t.Fatalf("receipts for %d distinct ids, want %d", len(seen), 2*n)
	}
	if s := g.Status(); s.Batches.RecipientsSent != n || s.Inbound.Receipts < 2*n {
		t.Fatalf("status counters %+v %+v", s.Batches, s.Inbound)
	}
}

// The same batch delivered as two tasks with different ids (through the
// asynq server) and once more by a direct handler call, all at the same
// time: every recipient is claimed by exactly one of them and submitted once.
//
// In each claim mode (migrations/0198): ranges (the claim's row alone), rows (the
// recipients move to status 7, as the previous release claims) and the switch
// from rows to ranges while the consumers run.
func TestDuplicateTasksSubmitOnce(t *testing.T) {
	for _, mode := range []string{"ranges", "rows", "switched"} {
		t.Run(mode, func(t *testing.T) { duplicateTasksSubmitOnce(t, mode) })
	}
}

func duplicateTasksSubmitOnce(t *testing.T, mode string) {
	e := newEnv(t, smscsim.Config{})
	setMode := func(m string) {
		if _, err := e.db.Pool.Exec(context.Background(), `UPDATE settings SET value = to_jsonb($1::text) WHERE key = 'claim_mode'`, m); err != nil {
			t.Error(err)
		}
	}
	if mode != "ranges" {
		setMode("rows")
	}
	var chunks, runs atomic.Int64
	g := e.start(e.config(func(c *Config) { c.Binds[0].TPS = 5000 }), func(g *Gateway) {
		g.handler.chunk = 100
		g.handler.afterChunk = func(_ jobs.SendBatch, chunk int) {
			if chunks.Add(1) == 4 && mode == "switched" {
				setMode("ranges")
			}
			if chunk == 1 {
				runs.Add(1) // a handler run that claimed something
			}
		}
	})

	const n = 2000
	sendID := e.createSend(persian2, true, "queued")
	e.addRecipients(sendID, 7, n, 1, "98935", "mci", 2)
	b := jobs.SendBatch{SendID: sendID, Batch: 7, Operator: "mci"}

	var wg sync.WaitGroup
	wg.Go(func() {
		if err := g.handler.ProcessTask(e.ctx(), batchTask(t, b)); err != nil {
			t.Errorf("direct handler: %v", err)
		}
	})
	e.enqueue(b, "")
	e.enqueue(b, "batch-duplicate")
	wg.Wait()
	waitFor(t, 30*time.Second, "all recipients sent", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == n
	})
	// A late re-delivery finds nothing left to claim.
	if err := g.handler.ProcessTask(e.ctx(), batchTask(t, b)); err != nil {
		t.Fatalf("re-delivered task: %v", err)
	}
	ins := asynq.NewInspector(e.asynqOpt())
	defer ins.Close()
	waitFor(t, 10*time.Second, "both queued tasks completed", func() bool {
		qi, err := ins.GetQueueInfo(jobs.CarrierQueue("mci"))
		return err == nil && qi.Pending == 0 && qi.Active == 0 && qi.Completed == 2
	})

	st := e.sim.Stats()
	if st.Duplicates != 0 || st.Total.Accepted != 2*n {
		t.Fatalf("simulator: accepted %d, duplicates %d %v", st.Total.Accepted, st.Duplicates, st.DuplicateDestinations)
	}
	if c := len(e.recordedIDs(sendID)); c != 2*n {
		t.Fatalf("%d message ids, want %d", c, 2*n)
	}
	if sc := e.sendCounters(sendID); sc.Submitted != n || sc.Rejected != 0 {
		t.Fatalf("send counters %+v", sc)
	}
	if c := chunks.Load(); c < n/100 {
		t.Fatalf("%d chunks recorded, want at least %d", c, n/100)
	}
	if r := runs.Load(); r < 2 {
		t.Fatalf("only %d consumer claimed recipients: the deliveries did not overlap", r)
	}
	t.Logf("%d chunks recorded by %d concurrent consumers", chunks.Load(), runs.Load())
}

// A stopped send: before its batch starts, every queued recipient is
// rejected with 'stopped' and nothing is submitted; during the batch, the
// stop takes effect at the next chunk.
func TestStoppedSend(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	var stopAfter atomic.Int64 // send id to stop after its first chunk
	g := e.start(e.config(nil), func(g *Gateway) {
		g.handler.chunk = 200
		g.handler.afterChunk = func(b jobs.SendBatch, chunk int) {
			if b.SendID == stopAfter.Load() && chunk == 1 {
				if _, err := e.db.Pool.Exec(context.Background(),
					`UPDATE sends SET status = 'stopped', stopped_at = now() WHERE id = $1`, b.SendID); err != nil {
					t.Errorf("stop send: %v", err)
				}
			}
		}
	})

	t.Run("before", func(t *testing.T) {
		sendID := e.createSend(persian2, true, "stopped")
		e.addRecipients(sendID, 1, 1000, 1, "98912", "mci", 2)
		before := e.sim.Stats().Total.SubmitSM
		if err := g.handler.ProcessTask(e.ctx(), batchTask(t, jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"})); err != nil {
			t.Fatal(err)
		}
		if got := e.statusCounts(sendID); got[6] != 1000 || len(got) != 1 {
			t.Fatalf("statuses %v", got)
		}
		if c := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND error = 'stopped'`, sendID); c != 1000 {
			t.Fatalf("%d with error 'stopped'", c)
		}
		if sc := e.sendCounters(sendID); sc.Rejected != 1000 || sc.Submitted != 0 || sc.Status != "stopped" {
			t.Fatalf("send counters %+v", sc)
		}
		if d := e.sim.Stats().Total.SubmitSM - before; d != 0 {
			t.Fatalf("%d submit_sm for a stopped send", d)
		}
	})

	t.Run("during", func(t *testing.T) {
		sendID := e.createSend(persian2, true, "queued")
		e.addRecipients(sendID, 1, 1000, 1, "98935", "mci", 2)
		stopAfter.Store(sendID)
		before := e.sim.Stats().Total.Accepted
		if err := g.handler.ProcessTask(e.ctx(), batchTask(t, jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"})); err != nil {
			t.Fatal(err)
		}
		got := e.statusCounts(sendID)
		if got[0] != 200 || got[6] != 800 || len(got) != 2 {
			t.Fatalf("statuses %v, want 200 sent (one chunk) and 800 stopped", got)
		}
		if sc := e.sendCounters(sendID); sc.Submitted != 200 || sc.Rejected != 800 {
			t.Fatalf("send counters %+v", sc)
		}
		if d := e.sim.Stats().Total.Accepted - before; d != 400 {
			t.Fatalf("simulator accepted %d parts, want 400", d)
		}
		// None of the stopped recipients reached a handset.
		rows, err := e.db.Pool.Query(e.ctx(), `SELECT mobile FROM recipients WHERE send_id = $1 AND status = 6`, sendID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var m string
			if err := rows.Scan(&m); err != nil {
				t.Fatal(err)
			}
			if msgs := e.sim.Messages(m); len(msgs) != 0 {
				t.Fatalf("stopped recipient %s received %d messages", m, len(msgs))
			}
		}
	})
}

// A simulator accepting 100 submit_sm/s answers the unthrottled gateway
// ESME_RTHROTTLED; the bind backs off and resubmits until everything is
// accepted, with no duplicate.
func TestThrottledResubmitted(t *testing.T) {
	e := newEnv(t, smscsim.Config{Rate: 100, Burst: 20})
	reg := prometheus.NewRegistry()
	e.metrics = reg
	g := e.start(e.config(func(c *Config) {
		c.Binds[0].Window = 50
		c.Binds[0].ThrottlePause = 100 * time.Millisecond
	}), nil)

	const n = 300
	sendID := e.createSend("hello from chapar", false, "queued")
	e.addRecipients(sendID, 1, n, 1, "98912", "mci", 1)
	if err := g.handler.ProcessTask(e.ctx(), batchTask(t, jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"})); err != nil {
		t.Fatal(err)
	}
	if got := e.statusCounts(sendID); got[0] != n || len(got) != 1 {
		t.Fatalf("statuses %v", got)
	}
	if u := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND unknown`, sendID); u != 0 {
		t.Fatalf("%d unknown", u)
	}
	st := e.sim.Stats()
	if st.Total.Throttled == 0 || st.Total.Accepted != n || st.Duplicates != 0 {
		t.Fatalf("simulator: throttled %d accepted %d duplicates %d", st.Total.Throttled, st.Total.Accepted, st.Duplicates)
	}
	if bs := bindStats(g.Gateway); bs.Throttled == 0 || g.Status().Batches.PartsRetried == 0 {
		t.Fatalf("bind throttled %d, retried %d", bs.Throttled, g.Status().Batches.PartsRetried)
	}
	t.Logf("throttled %d times, all %d accepted", st.Total.Throttled, n)
	checkBatchMetrics(t, reg, g.Gateway, n)
}

// The simulator accepts the part for the 150th handset and drops the
// connection before answering it, so at least that part is surely in flight at
// the drop (whatever the machine's load): what was in flight is recorded as
// sent with unknown = true and never resubmitted, the bind reconnects, and
// the rest of the batch goes out in the same run.
func TestDisconnectMidBatch(t *testing.T) {
	const cut = "989120000150" // addRecipients' 150th mobile
	e := newEnv(t, smscsim.Config{SubmitFaults: []smscsim.SubmitFault{{Dest: cut, Disconnect: true, Times: 1}}})
	g := e.start(e.config(nil), nil)

	const n = 600
	sendID := e.createSend("hello from chapar", false, "queued")
	e.addRecipients(sendID, 1, n, 1, "98912", "mci", 1)
	if err := g.handler.ProcessTask(e.ctx(), batchTask(t, jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"})); err != nil {
		t.Fatal(err)
	}
	if got := e.statusCounts(sendID); got[0] != n || len(got) != 1 {
		t.Fatalf("statuses %v", got)
	}
	unknown := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND unknown`, sendID)
	bs := bindStats(g.Gateway)
	if unknown == 0 || int64(unknown) != bs.Unknown {
		t.Fatalf("%d unknown recipients, %d unknown submits", unknown, bs.Unknown)
	}
	if c := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND mobile = $2 AND unknown`, sendID, cut); c != 1 {
		t.Fatalf("the part in flight at the drop (%s) is not unknown", cut)
	}
	if bs.Reconnects < 1 {
		t.Fatalf("bind did not reconnect: %+v", bs)
	}
	// An unknown submit may still have been accepted (its response was lost
	// with the connection); none was submitted twice.
	st := e.sim.Stats()
	known := n - unknown
	if st.Duplicates != 0 || st.Total.Accepted < int64(known) || st.Total.Accepted > n || st.Operators["mci"].Disconnects < 1 {
		t.Fatalf("simulator: accepted %d (known %d of %d) duplicates %d disconnects %d",
			st.Total.Accepted, known, n, st.Duplicates, st.Operators["mci"].Disconnects)
	}
	ids := e.recordedIDs(sendID)
	if c := countIDs(ids, func(x recordedID) bool { return !x.unknown }); c != known {
		t.Fatalf("%d message ids for known recipients, want %d", c, known)
	}
	if c := countIDs(ids, func(x recordedID) bool { return x.unknown }); c != 0 {
		t.Fatalf("%d message ids for unknown recipients", c)
	}
	if sc := e.sendCounters(sendID); sc.Submitted != n {
		t.Fatalf("send counters %+v", sc)
	}
	// Every accepted message gets its receipt; those matching no recorded
	// id are for unknown recipients, which the worker reconciles by mobile.
	waitFor(t, time.Minute, "a receipt per accepted message", func() bool { return e.streamLen() >= st.Total.Accepted })
	recorded := map[string]bool{}
	unknownMobiles := map[string]bool{}
	for _, x := range ids {
		recorded[x.id] = true
	}
	rows, err := e.db.Pool.Query(e.ctx(), `SELECT mobile FROM recipients WHERE send_id = $1 AND unknown`, sendID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var m string
		_ = rows.Scan(&m)
		unknownMobiles[m] = true
	}
	rows.Close()
	unmatched := 0
	for _, in := range e.streamEntries() {
		if recorded[in.MsgID] {
			continue
		}
		if !unknownMobiles[in.Mobile] {
			t.Fatalf("receipt %s for %s matches no id and no unknown recipient", in.MsgID, in.Mobile)
		}
		unmatched++
	}
	if unmatched != int(st.Total.Accepted)-known {
		t.Fatalf("%d receipts for unknown recipients, want %d", unmatched, int(st.Total.Accepted)-known)
	}
	t.Logf("%d in flight at the drop became unknown (%d of them had been accepted); %d accepted in all",
		unknown, unmatched, st.Total.Accepted)
}

// MO messages injected at the simulator land in the stream: a short one as
// one entry, a long one as its parts with their UDH fields.
func TestMOToStream(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	e.start(e.config(nil), nil)

	if _, err := e.sim.InjectMO(smscsim.MO{Operator: "mci", From: "989121234567", To: "30001234", Text: "لغو۱۱"}); err != nil {
		t.Fatal(err)
	}
	long := persian2 + persian2
	parts, err := e.sim.InjectMO(smscsim.MO{Operator: "mci", From: "989127654321", To: "30001234", Text: long})
	if err != nil || parts < 2 {
		t.Fatalf("long MO: %d parts, %v", parts, err)
	}
	waitFor(t, 10*time.Second, "MO entries", func() bool { return e.streamLen() >= int64(1+parts) })
	var short []Inbound
	byRef := map[int][]Inbound{}
	for _, in := range e.streamEntries() {
		if in.Kind != KindMO || in.Operator != "mci" || in.Line != "30001234" {
			t.Fatalf("entry %+v", in)
		}
		if in.Multipart() {
			byRef[in.UDHRef] = append(byRef[in.UDHRef], in)
		} else {
			short = append(short, in)
		}
	}
	if len(short) != 1 || short[0].Text != "لغو۱۱" || short[0].Mobile != "989121234567" {
		t.Fatalf("short MO %+v", short)
	}
	if len(byRef) != 1 {
		t.Fatalf("long MO parts %+v", byRef)
	}
	for _, ps := range byRef {
		if len(ps) != parts {
			t.Fatalf("%d parts in the stream, want %d", len(ps), parts)
		}
		text := make([]string, parts)
		for _, p := range ps {
			if p.UDHTotal != parts || p.Mobile != "989127654321" {
				t.Fatalf("part %+v", p)
			}
			text[p.UDHSeq-1] = p.Text
		}
		joined := ""
		for _, s := range text {
			joined += s
		}
		if joined != long {
			t.Fatalf("reassembled %q, want %q", joined, long)
		}
	}
}

// Numbers of operator "other" go out through the binds of the configured
// route, and their message ids are recorded under that operator.
func TestOtherRoute(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	g := e.start(e.config(nil), nil)
	if q := g.Queues(); q[jobs.CarrierQueue("other")] != 1 || q[jobs.CarrierQueueCritical("other")] != 2 || q[jobs.CarrierQueueCritical("mci")] != 2 {
		t.Fatalf("queues %v", q)
	}
	sendID := e.createSend("route me", false, "queued")
	e.addRecipients(sendID, 3, 50, 1, "98999", "other", 1)
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 3, Operator: "other"}, "")
	waitFor(t, 20*time.Second, "other recipients sent", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == 50
	})
	if c := countIDs(e.recordedIDs(sendID), func(x recordedID) bool { return x.route == "mci" }); c != 50 {
		t.Fatalf("%d message ids under mci", c)
	}
	if st := e.sim.Stats().Operators["mci"]; st.Accepted != 50 {
		t.Fatalf("mci accepted %d", st.Accepted)
	}
}

// GET /status and /healthz, and the heartbeat the API's /readyz reads.
func TestStatusAndHeartbeat(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	g := e.start(e.config(func(c *Config) {
		host, port := splitAddr(t, e.sim.Addr("irancell"))
		c.Binds = append(c.Binds, BindConfig{Operator: "irancell", Host: host, Port: port,
			SystemID: e.sim.SystemID(), Password: e.sim.Password()})
	}), nil)
	waitFor(t, 10*time.Second, "both binds bound", func() bool {
		for _, b := range g.Status().Binds {
			if !b.Bound {
				return false
			}
		}
		return true
	})

	res, err := http.Get("http://" + g.HTTPAddr() + "/status")
	if err != nil {
		t.Fatal(err)
	}
	// smpp.ConnState marshals as text but has no UnmarshalText: read the
	// bind counters as raw JSON.
	var st struct {
		Instance string
		Binds    []struct {
			Name, Operator, Addr, State string
			Bound                       bool
			Stats                       struct{ Binds int64 }
		}
	}
	err = json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /status: %d %v", res.StatusCode, err)
	}
	if st.Instance != g.cfg.InstanceID || len(st.Binds) != 2 || st.Binds[0].Operator != "mci" || !st.Binds[1].Bound || st.Binds[1].Operator != "irancell" ||
		st.Binds[0].State != "bound" || st.Binds[0].Addr != e.sim.Addr("mci") || st.Binds[0].Stats.Binds != 1 {
		t.Fatalf("status %+v", st)
	}
	res, err = http.Get("http://" + g.HTTPAddr() + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /healthz: %v", err)
	}
	res.Body.Close()

	key := jobs.GatewayHeartbeat + g.cfg.InstanceID
	raw, err := e.redis.Client.Get(e.ctx(), key).Bytes()
	if err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	var hb Heartbeat
	if err := json.Unmarshal(raw, &hb); err != nil {
		t.Fatal(err)
	}
	if hb.Instance != g.cfg.InstanceID || len(hb.Binds) != 2 || time.Since(hb.At) > 10*time.Second {
		t.Fatalf("heartbeat %s", raw)
	}
	waitFor(t, 5*time.Second, "heartbeat with both binds bound", func() bool {
		raw, _ := e.redis.Client.Get(e.ctx(), key).Bytes()
		_ = json.Unmarshal(raw, &hb)
		return len(hb.Binds) == 2 && hb.Binds[0].Bound && hb.Binds[1].Bound
	})
	if ttl := e.redis.Client.TTL(e.ctx(), key).Val(); ttl <= 0 || ttl > heartbeatTTL {
		t.Fatalf("heartbeat TTL %v", ttl)
	}

	// Stopping removes the heartbeat and unbinds.
	if err := g.stop(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := e.redis.Client.Exists(e.ctx(), key).Val(); n != 0 {
		t.Fatal("heartbeat left after stop")
	}
	waitFor(t, 5*time.Second, "unbinds at the simulator", func() bool { return e.sim.Stats().Total.Unbinds == 2 })
}

// Stopping the gateway mid-batch: it takes no new work, finishes the
// recipients it started, leaves the rest queued and the task retried, and
// unbinds; a new gateway then completes the batch with no duplicate.
func TestGracefulShutdownMidBatch(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	slow := func(c *Config) { c.Binds[0].TPS = 400 }
	g := e.start(e.config(slow), func(g *Gateway) { g.handler.chunk = 100 })

	const n = 1500
	sendID := e.createSend(persian2, true, "queued")
	e.addRecipients(sendID, 1, n, 1, "98912", "mci", 2)
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"}, "")
	waitFor(t, 20*time.Second, "the batch under way", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) >= 150
	})
	start := time.Now()
	if err := g.stop(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("stopped in %s", time.Since(start).Round(time.Millisecond))
	got := e.statusCounts(sendID)
	if got[7] != 0 || got[0]+got[5] != n || got[5] == 0 {
		t.Fatalf("statuses after stop %v", got)
	}
	if u := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND (unknown OR parts_failed > 0)`, sendID); u != 0 {
		t.Fatalf("%d recipients unknown or partly sent after a graceful stop", u)
	}
	st := e.sim.Stats()
	if st.Total.Accepted != int64(2*got[0]) || st.Total.Unbinds != 1 {
		t.Fatalf("simulator accepted %d parts for %d recipients, unbinds %d", st.Total.Accepted, got[0], st.Total.Unbinds)
	}
	ins := asynq.NewInspector(e.asynqOpt())
	defer ins.Close()
	if qi, err := ins.GetQueueInfo(jobs.CarrierQueue("mci")); err != nil || qi.Retry+qi.Pending != 1 {
		t.Fatalf("queue after stop: %+v %v", qi, err)
	}

	// A second gateway takes the retried task over.
	if err := ins.RunTask(jobs.CarrierQueue("mci"), fmt.Sprintf("batch:%d:1", sendID)); err != nil {
		t.Logf("run retried task now: %v", err) // already pending
	}
	e.start(e.config(nil), nil)
	waitFor(t, 30*time.Second, "the rest of the batch", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == n
	})
	if st := e.sim.Stats(); st.Duplicates != 0 || st.Total.Accepted != 2*n {
		t.Fatalf("simulator accepted %d duplicates %d", st.Total.Accepted, st.Duplicates)
	}
	if sc := e.sendCounters(sendID); sc.Submitted != n {
		t.Fatalf("send counters %+v", sc)
	}
}

// A stop takes effect inside a claimed chunk: the recorder refuses the next
// grant, the handler starts no further recipient, and the rest of the claim
// goes back to the queue and is rejected as stopped; the claim row is gone.
func TestStopWithinGrant(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	g := e.start(e.config(func(c *Config) { c.Binds[0].TPS = 400 }), func(g *Gateway) { g.handler.chunk = 1000 })
	const n = 1000
	sendID := e.createSend("hello from chapar", false, "queued")
	e.addRecipients(sendID, 1, n, 1, "98912", "mci", 1)
	stopped := make(chan int, 1)
	go func() {
		for e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) < 200 {
			time.Sleep(5 * time.Millisecond)
		}
		if _, err := e.db.Pool.Exec(context.Background(), `UPDATE sends SET status = 'stopped' WHERE id = $1`, sendID); err != nil {
			t.Errorf("stop: %v", err)
		}
		stopped <- e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID)
	}()
	if err := g.handler.ProcessTask(e.ctx(), batchTask(t, jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"})); err != nil {
		t.Fatal(err)
	}
	atStop := <-stopped
	got := e.statusCounts(sendID)
	sent := got[0]
	// At 400/s a grant covers about 32 recipients; the stop lands within a
	// recording round or two.
	if sent+got[6] != n || len(got) != 2 || sent < atStop || sent > atStop+150 {
		t.Fatalf("statuses %v; %d sent when the send was stopped", got, atStop)
	}
	if c := e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 6 AND error = 'stopped'`, sendID); c != n-sent {
		t.Fatalf("%d stopped, want %d", c, n-sent)
	}
	if sc := e.sendCounters(sendID); sc.Submitted != sent || sc.Rejected != n-sent {
		t.Fatalf("send counters %+v, %d sent", sc, sent)
	}
	if c := e.count(`SELECT count(*) FROM recipient_claims`); c != 0 {
		t.Fatalf("%d claims left", c)
	}
	if st := e.sim.Stats(); st.Total.Accepted != int64(sent) || st.Duplicates != 0 {
		t.Fatalf("simulator accepted %d for %d sent", st.Total.Accepted, sent)
	}
	t.Logf("stopped at %d sent; %d sent in all, %d stopped", atStop, sent, n-sent)
}
