// Package inbound drains the gateways' inbound stream (delivery receipts and MO
// messages, stored by the gateway before it answered the carrier) into PostgreSQL in
// batches: receipts through send.ApplyReceipts, MO messages through inbox.Apply.
// The worker holding the fleet's lease reads it; the others help only when it
// falls behind.
// Entries are acknowledged only after their batch committed, and entries a dead
// worker left unacknowledged are claimed again, so nothing is lost and a repeat
// changes nothing.
package inbound

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/platform/lease"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/send"
)

// DefaultConsumers is the number of group consumers a worker runs when
// Consumer.Consumers is not set.
const DefaultConsumers = 2

// Consumer applies the inbound stream.
type Consumer struct {
	RDB   redis.UniversalClient
	Sends *send.Service
	Inbox *inbox.Service
	// Pool is the database of the quarantine (inbound_quarantine).
	Pool *pgxpool.Pool
	// Name identifies this worker in the consumer group.
	Name string
	// Consumers is the number of members of the consumer group this worker runs
	// (DefaultConsumers when 0), each named Name-i and applying its own batches,
	// so that one applies while another reads. Receipts are idempotent (a part's
	// state is set once; a recipient only moves forward) and MO messages are
	// keyed by their stream id, so the order between consumers does not matter.
	Consumers int
	// Batch is the most entries applied in one transaction.
	Batch int
	// OnMO, when set, is told about each stored MO (the inbox.received event).
	OnMO func(ctx context.Context, m inbox.Stored)
	// Lead, when set, is the fleet's lease: only the worker holding it retries
	// pending receipts, folds the counters, stores concatenated messages and
	// expires message ids (each is also safe on several at once).
	Lead *lease.Lead
	// Alive, when set, names the processes alive now as Name names a worker
	// (host-pid). The lead then takes over the entries a dead worker read and
	// left unacknowledged as soon as its process is gone and its members have
	// been idle DeadAfter, instead of after stragglerAge (30 s).
	Alive func(ctx context.Context) (map[string]bool, error)
	// DeadAfter is how long a dead worker's members must have been idle before
	// its entries are taken over (DefaultDeadAfter when 0).
	DeadAfter time.Duration
	// Metrics is the registry of the consumer's Prometheus metrics (metrics.go;
	// nil: they are kept but not registered).
	Metrics prometheus.Registerer

	metricsOnce sync.Once
	metrics     *inboundMetrics
}

// m is the consumer's metrics, made on first use.
func (c *Consumer) m() *inboundMetrics {
	c.metricsOnce.Do(func() { c.metrics = newInboundMetrics(c.Metrics, c.RDB) })
	return c.metrics
}

// DefaultDeadAfter is Consumer.DeadAfter's default: a live member reads at
// least every 200 ms unless it is applying a batch.
const DefaultDeadAfter = 5 * time.Second

// ParseConsumers reads a consumer count (the INBOUND_CONSUMERS setting): a
// positive integer, otherwise 0 (the default).
func ParseConsumers(v string) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// Run consumes until ctx ends.
func (c *Consumer) Run(ctx context.Context) error {
	if c.Batch <= 0 {
		c.Batch = 5000
	}
	n := c.Consumers
	if n <= 0 {
		n = DefaultConsumers
	}
	err := c.RDB.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err()
	if err != nil && !isBusyGroup(err) {
		return fmt.Errorf("create consumer group: %w", err)
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { c.consume(ctx, fmt.Sprintf("%s-%d", c.Name, i), i == 0) })
	}
	wg.Wait()
	return nil
}

// consume is one member of the group. The lead member also claims entries a
// dead consumer left unacknowledged and retries the pending receipts.
func (c *Consumer) consume(ctx context.Context, name string, lead bool) {
	lastClaim, lastDead := time.Time{}, time.Time{}
	lastPending, lastExpire, lastFlush, lastFold := time.Time{}, time.Time{}, time.Time{}, time.Time{}
	for ctx.Err() == nil {
		if !c.helps(ctx) {
			sleepCtx(ctx, followerWait)
			continue
		}
		var msgs []redis.XMessage
		if lead && time.Since(lastDead) > c.deadAfter() {
			lastDead = time.Now()
			msgs = c.fromDead(ctx, name)
		}
		if lead && len(msgs) == 0 && time.Since(lastClaim) > 15*time.Second {
			lastClaim = time.Now()
			msgs = c.stragglers(ctx, name)
		}
		fresh := len(msgs) == 0
		if fresh {
			var ok bool
			if msgs, ok = c.readNew(ctx, name); !ok {
				continue
			}
		}
		if len(msgs) > 0 {
			settle(ctx, msgs[len(msgs)-1].ID, time.Now())
			c.applyRetrying(ctx, msgs, fresh)
		}
		if !lead || !c.Lead.Held(ctx) { // a nil Lead (no fleet) is always held
			continue
		}
		if time.Since(lastPending) > 500*time.Millisecond {
			lastPending = time.Now()
			// The sends whose counters move are announced by the fold below.
			if a, err := c.Sends.RetryPending(ctx); err != nil {
				slog.WarnContext(ctx, "retry pending receipts", "err", err)
			} else {
				c.m().applied(a, true)
			}
		}
		if time.Since(lastFold) > foldEvery {
			lastFold = time.Now()
			if ids, err := c.Sends.FoldCounts(ctx); err != nil {
				slog.WarnContext(ctx, "fold send counters", "err", err)
			} else {
				c.dirty(ctx, ids)
			}
		}
		if time.Since(lastFlush) > flushEvery {
			lastFlush = time.Now()
			c.flushParts(ctx)
		}
		if time.Since(lastExpire) > expireEvery {
			lastExpire = time.Now()
			if _, err := c.Sends.ExpireMessageIDs(ctx, expireBatch); err != nil {
				slog.WarnContext(ctx, "expire message ids", "err", err)
			}
		}
	}
}

// readNew reads, for member name, a batch of entries no member has read (">"),
// gathered (gather); false after a failed read, which it has logged and waited
// out.
func (c *Consumer) readNew(ctx context.Context, name string) ([]redis.XMessage, bool) {
	res, err := c.RDB.XReadGroup(ctx, &redis.XReadGroupArgs{Group: jobs.InboundGroup, Consumer: name,
		Streams: []string{jobs.InboundStream, ">"}, Count: int64(c.Batch), Block: 200 * time.Millisecond}).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		if ctx.Err() != nil {
			return nil, false
		}
		if isNoGroup(err) {
			_ = c.RDB.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err()
		} else {
			slog.WarnContext(ctx, "read inbound stream", "err", err)
		}
		sleepCtx(ctx, 500*time.Millisecond)
		return nil, false
	}
	var msgs []redis.XMessage
	for _, s := range res {
		msgs = append(msgs, s.Messages...)
	}
	return c.gather(ctx, name, msgs), true
}

func (c *Consumer) deadAfter() time.Duration {
	if c.DeadAfter > 0 {
		return c.DeadAfter
	}
	return DefaultDeadAfter
}

// fromDead takes over, for member name, the unacknowledged entries of a
// member whose process is not alive (Alive) and that has been idle DeadAfter:
// a killed worker's batch is applied within seconds of its death. A live
// process's members are left alone, however long they take.
func (c *Consumer) fromDead(ctx context.Context, name string) []redis.XMessage {
	if c.Alive == nil {
		return nil
	}
	members, err := c.RDB.XInfoConsumers(ctx, jobs.InboundStream, jobs.InboundGroup).Result()
	if err != nil {
		return nil // the group is made by the next read; other errors show there
	}
	var alive map[string]bool
	for _, m := range members {
		if m.Pending == 0 || m.Idle < c.deadAfter() {
			continue
		}
		if alive == nil {
			if alive, err = c.Alive(ctx); err != nil {
				slog.WarnContext(ctx, "list live processes", "err", err)
				return nil
			}
		}
		if alive[processOf(m.Name)] {
			continue
		}
		msgs, err := c.claimFrom(ctx, name, m.Name)
		if err != nil {
			slog.WarnContext(ctx, "take over a dead worker's inbound entries", "member", m.Name, "err", err)
			continue
		}
		if len(msgs) > 0 {
			slog.WarnContext(ctx, "a dead worker's inbound entries taken over", "member", m.Name, "entries", len(msgs))
			return msgs
		}
	}
	return nil
}

// claimFrom claims, for member name, up to Batch of the entries member from holds.
func (c *Consumer) claimFrom(ctx context.Context, name, from string) ([]redis.XMessage, error) {
	held, err := c.RDB.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: jobs.InboundStream, Group: jobs.InboundGroup,
		Start: "-", End: "+", Count: int64(c.Batch), Consumer: from}).Result()
	if err != nil || len(held) == 0 {
		return nil, err
	}
	ids := make([]string, len(held))
	for i, p := range held {
		ids[i] = p.ID
	}
	return c.RDB.XClaim(ctx, &redis.XClaimArgs{Stream: jobs.InboundStream, Group: jobs.InboundGroup,
		Consumer: name, MinIdle: c.deadAfter(), Messages: ids}).Result()
}

// processOf is the process a member belongs to: its name without the "-i" of
// its place among the worker's members (Run).
func processOf(member string) string {
	if i := strings.LastIndexByte(member, '-'); i > 0 {
		return member[:i]
	}
	return member
}

// followerWait is how often a member of a worker without the fleet's lease
// looks whether the lead's members have fallen behind.
const followerWait = 500 * time.Millisecond

// helps reports whether this member reads the stream: always on the worker
// holding the fleet's lease (and with no fleet), on the others only while more
// than three batches wait in the stream (acknowledged entries are deleted, so
// its length is what is not yet applied; the lead's members hold up to a batch
// each). One worker applies everything it can keep up with, in transactions as
// large as with a single worker: with every worker's members reading, three
// workers applied 248 transactions of about 400 receipts per 100,000
// recipients where one applied 80 of about 1,250 (docs/history/testbed-2026-11.md, ninth day).
func (c *Consumer) helps(ctx context.Context) bool {
	if c.Lead.Held(ctx) {
		return true
	}
	n, err := c.RDB.XLen(ctx, jobs.InboundStream).Result()
	return err != nil || n > 3*int64(c.Batch)
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// stragglerAge is how long an entry may wait unacknowledged before the lead
// takes it over.
const stragglerAge = 30 * time.Second

// stragglers are the entries the lead takes over: those a consumer read and
// left unacknowledged for stragglerAge (it died), then orphans.
func (c *Consumer) stragglers(ctx context.Context, name string) []redis.XMessage {
	claimed, _, err := c.RDB.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: jobs.InboundStream, Group: jobs.InboundGroup,
		Consumer: name, MinIdle: stragglerAge, Start: "0-0", Count: int64(c.Batch)}).Result()
	if err == nil && len(claimed) > 0 {
		return claimed
	}
	orphans, err := c.orphans(ctx, time.Now().Add(-stragglerAge))
	if err != nil {
		slog.WarnContext(ctx, "find orphaned inbound entries", "err", err)
	} else if len(orphans) > 0 {
		slog.WarnContext(ctx, "orphaned inbound entries taken over", "entries", len(orphans))
	}
	return orphans
}

// orphans are entries older than before that the group has delivered (they lie
// before its last-delivered id) yet that no consumer holds and nobody deleted:
// a Redis restart can keep a read's new last-delivered id and lose its pending
// entries (found by the chaos suite), and then neither a read of new entries
// nor a claim ever returns them. Applying an entry twice changes nothing.
func (c *Consumer) orphans(ctx context.Context, before time.Time) ([]redis.XMessage, error) {
	groups, err := c.RDB.XInfoGroups(ctx, jobs.InboundStream).Result()
	if err != nil {
		return nil, err
	}
	end := strconv.FormatInt(before.UnixMilli(), 10)
	for _, g := range groups {
		if g.Name == jobs.InboundGroup && idBefore(g.LastDeliveredID, end) {
			end = g.LastDeliveredID
		}
	}
	msgs, err := c.RDB.XRangeN(ctx, jobs.InboundStream, "-", end, int64(c.Batch)).Result()
	if err != nil || len(msgs) == 0 {
		return nil, err
	}
	held, err := c.RDB.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: jobs.InboundStream, Group: jobs.InboundGroup,
		Start: msgs[0].ID, End: msgs[len(msgs)-1].ID, Count: int64(len(msgs))}).Result()
	if err != nil {
		return nil, err
	}
	pending := make(map[string]bool, len(held))
	for _, p := range held {
		pending[p.ID] = true
	}
	out := msgs[:0]
	for _, m := range msgs {
		if !pending[m.ID] {
			out = append(out, m)
		}
	}
	return out, nil
}

// idBefore reports whether stream id a ("ms-seq", or "ms") comes before b.
func idBefore(a, b string) bool {
	am, as, _ := strings.Cut(a, "-")
	bm, bs, _ := strings.Cut(b, "-")
	ai, _ := strconv.ParseInt(am, 10, 64)
	bi, _ := strconv.ParseInt(bm, 10, 64)
	if ai != bi {
		return ai < bi
	}
	an, _ := strconv.ParseInt(as, 10, 64)
	bn, _ := strconv.ParseInt(bs, 10, 64)
	return an < bn
}

// Settle is how old the newest entry of a batch must be before the batch is
// applied. A gateway records a submit's message id within a few tens of
// milliseconds of its response (its recorder writes in group transactions,
// slower under load), and an SMSC may send the receipt at once: applied
// earlier, such a receipt would find no id and take the slower path through
// pending_receipts. At 100 ms, 8,548 of a 100,000-recipient send's receipts
// took that path in make bench; at 150 ms, 0–820 in four runs (2026-11-27).
const Settle = 150 * time.Millisecond

// GatherMin and Gather fill a batch by volume rather than by time: while a
// member holds fewer than GatherMin entries and its oldest entry is younger than
// Gather, it reads again, so that batches keep their size when several members
// share the stream (the lead's two, and the followers' once they help); a
// receipt waits at most Gather plus Settle longer for it. A read of fewer than
// GatherFrom entries is applied as it is: the stream is quiet, and a one-time
// code's delivery (and its webhook) should not wait for a batch to fill.
const (
	GatherMin  = 1000
	GatherFrom = 50
	Gather     = 400 * time.Millisecond
)

// gather tops msgs up (see GatherMin), reading at most Batch entries in all.
func (c *Consumer) gather(ctx context.Context, name string, msgs []redis.XMessage) []redis.XMessage {
	if len(msgs) < GatherFrom {
		return msgs
	}
	for len(msgs) < min(GatherMin, c.Batch) {
		wait := waitFor(msgs[0].ID, Gather, time.Now())
		if wait < time.Millisecond {
			break
		}
		res, err := c.RDB.XReadGroup(ctx, &redis.XReadGroupArgs{Group: jobs.InboundGroup, Consumer: name,
			Streams: []string{jobs.InboundStream, ">"}, Count: int64(c.Batch - len(msgs)), Block: wait}).Result()
		if err != nil {
			break // redis.Nil when nothing more came; other errors show at the next read
		}
		for _, s := range res {
			msgs = append(msgs, s.Messages...)
		}
	}
	return msgs
}

// waitFor is how long until the entry id (milliseconds-sequence) is age old,
// never longer than age whatever the clocks say (0 when it is, or the id is
// not one).
func waitFor(id string, age time.Duration, now time.Time) time.Duration {
	at, ok := idTime(id)
	if !ok {
		return 0
	}
	return max(min(at.Add(age).Sub(now), age), 0)
}

// idTime is when a stream entry id (milliseconds-sequence) was added; false
// when it is not one.
func idTime(id string) (time.Time, bool) {
	ms, _, _ := strings.Cut(id, "-")
	at, err := strconv.ParseInt(ms, 10, 64)
	return time.UnixMilli(at), err == nil
}

// settle waits until the entry id (milliseconds-sequence) is Settle old, never
// longer than Settle whatever the clocks say.
func settle(ctx context.Context, id string, now time.Time) {
	if wait := waitFor(id, Settle, now); wait > 0 {
		sleepCtx(ctx, wait)
	}
}

// applyRetrying applies a batch, trying again a few times (two consumers may
// deadlock on a recipient with parts in both batches; PostgreSQL aborts one).
// A batch still failing stays unacknowledged: the lead member claims it again.
func (c *Consumer) applyRetrying(ctx context.Context, msgs []redis.XMessage, fresh bool) {
	for attempt := 1; ; attempt++ {
		err := c.apply(ctx, msgs, fresh)
		if err == nil || ctx.Err() != nil {
			return
		}
		if attempt == applyAttempts {
			slog.ErrorContext(ctx, "apply inbound batch; it will be claimed again", "entries", len(msgs), "err", err)
			return
		}
		slog.WarnContext(ctx, "apply inbound batch; retrying", "entries", len(msgs), "attempt", attempt, "err", err)
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
	}
}

const applyAttempts = 5

// Message ids past their retention window are deleted by the lead consumer,
// expireBatch at most every expireEvery (they no longer match in any case).
const (
	expireEvery = time.Minute
	expireBatch = 20000
)

// apply applies a batch. Entries that cannot be parsed or carry unusable
// fields (checkEntry) are quarantined; the others are applied together, and
// when PostgreSQL refuses that for what the data is (entryRejected), each half
// is applied apart, down to the one entry it refuses, which is quarantined.
// Every entry of the batch is then acknowledged. Any other error leaves the
// batch unacknowledged, to be applied again (a repeat changes nothing).
func (c *Consumer) apply(ctx context.Context, msgs []redis.XMessage, fresh bool) error {
	entries, bad := parseEntries(msgs)
	var stored []inbox.Stored
	rejected, err := c.applySplitting(ctx, entries, &stored)
	c.announce(ctx, stored)
	if err != nil {
		return err
	}
	if err := c.quarantine(ctx, append(bad, rejected...)); err != nil {
		return err
	}
	_, err = c.remove(ctx, msgs, fresh)
	return err
}

// entry is a parsed, usable inbound entry.
type entry struct {
	msg redis.XMessage
	in  gateway.Inbound
}

// parseEntries parses msgs into the usable entries and those to quarantine.
func parseEntries(msgs []redis.XMessage) ([]entry, []poisoned) {
	entries := make([]entry, 0, len(msgs))
	var bad []poisoned
	for _, m := range msgs {
		in, err := gateway.ParseInbound(m.Values)
		if err == nil {
			if reason := checkEntry(&in); reason != "" {
				err = fmt.Errorf("%w: %s", gateway.ErrInbound, reason)
			}
		}
		if err != nil {
			bad = append(bad, poisoned{msg: m, reason: err.Error()})
			continue
		}
		entries = append(entries, entry{msg: m, in: in})
	}
	return entries, bad
}

// applySplitting applies es, adding the MO messages stored to stored; a batch
// PostgreSQL refuses for its data is applied in halves (see apply), and the
// entries refused alone are returned.
func (c *Consumer) applySplitting(ctx context.Context, es []entry, stored *[]inbox.Stored) ([]poisoned, error) {
	err := c.applyEntries(ctx, es, stored)
	if err == nil || !entryRejected(err) {
		return nil, err
	}
	if len(es) == 1 {
		return []poisoned{{msg: es[0].msg, reason: err.Error()}}, nil
	}
	slog.WarnContext(ctx, "inbound batch refused for its data; applying it in halves", "entries", len(es), "err", err)
	half := len(es) / 2
	first, err := c.applySplitting(ctx, es[:half], stored)
	if err != nil {
		return nil, err
	}
	second, err := c.applySplitting(ctx, es[half:], stored)
	return append(first, second...), err
}

// applyEntries applies the receipts of es, then its MO messages.
func (c *Consumer) applyEntries(ctx context.Context, es []entry, stored *[]inbox.Stored) error {
	var receipts []send.Receipt
	var mos []inbox.MO
	for _, e := range es {
		in := e.in
		switch in.Kind {
		case gateway.KindReceipt:
			if in.Stat == gateway.StatNone {
				continue
			}
			receipts = append(receipts, send.Receipt{Operator: in.Operator, MsgID: in.MsgID, AltIDs: in.MsgIDAlt,
				Stat: int16(in.Stat), State: receiptState(in), Mobile: in.Mobile, Err: in.Err, ReceivedAt: in.ReceivedAt})
		case gateway.KindMO:
			// The parts of a concatenated MO are put back together by inbox.Apply.
			mos = append(mos, inbox.MO{StreamID: e.msg.ID, Operator: in.Operator, Sender: in.Mobile, Line: in.Line,
				Text: in.Text, ReceivedAt: in.ReceivedAt, Ref: in.UDHRef, Seq: in.UDHSeq, Total: in.UDHTotal, UCS2: in.UCS2})
		}
	}
	a, err := c.Sends.ApplyReceipts(ctx, receipts)
	if err != nil {
		return err
	}
	m := c.m()
	m.applied(a, false)
	m.entries.WithLabelValues("receipt").Add(float64(len(receipts)))
	got, err := c.Inbox.Apply(ctx, mos)
	*stored = append(*stored, got...)
	if err == nil {
		m.entries.WithLabelValues("mo").Add(float64(len(mos)))
	}
	return err
}

// receiptState is what a failed receipt records as its recipient's error: the
// carrier's state text (EXPIRED, UNDELIV …) and its error code when it has one
// other than zero («UNDELIV err:011»); report.ReasonText words it in Persian.
func receiptState(in gateway.Inbound) string {
	if in.Stat != gateway.StatFailed {
		return ""
	}
	state := strings.ToUpper(strings.TrimSpace(in.State))
	if state == "" {
		state = "UNKNOWN"
	}
	if code := strings.TrimSpace(in.Err); strings.Trim(code, "0") != "" {
		state += " err:" + code
	}
	return state
}

// foldEvery is how often the lead consumer folds the sends' counter changes
// into the sends (send.FoldCounts): the lag of the progress a panel shows.
const foldEvery = 200 * time.Millisecond

// flushEvery is how often the lead consumer stores the concatenated messages
// whose missing parts never came.
const flushEvery = 2 * time.Second

func (c *Consumer) flushParts(ctx context.Context) {
	stored, err := c.Inbox.FlushParts(ctx)
	if err != nil {
		slog.WarnContext(ctx, "flush waiting parts", "err", err)
		return
	}
	c.announce(ctx, stored)
}

func (c *Consumer) announce(ctx context.Context, stored []inbox.Stored) {
	if c.OnMO != nil {
		for _, s := range stored {
			c.OnMO(ctx, s)
		}
	}
}

func (c *Consumer) dirty(ctx context.Context, sends []int64) {
	if len(sends) == 0 {
		return
	}
	members := make([]any, len(sends))
	for i, id := range sends {
		members[i] = strconv.FormatInt(id, 10)
	}
	if err := c.RDB.SAdd(ctx, jobs.DirtySends, members...).Err(); err != nil {
		slog.WarnContext(ctx, "mark sends dirty", "err", err)
	}
}

func isBusyGroup(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "BUSYGROUP") }
func isNoGroup(err error) bool   { return err != nil && strings.HasPrefix(err.Error(), "NOGROUP") }
