package gateway

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/platform/lease"
	"github.com/chapar/chapar/internal/platform/periodic"
)

// Bind leases split a carrier account's binds between gateways (docs/scaling.md).
// A carrier grants our system_id a fixed number of binds; every gateway is
// configured with the same list, and each configured bind is a slot that one
// gateway at a time holds, by a lease in Redis. A gateway holds at most its fair
// share of an operator's slots, ceil(slots / live gateways), so binds spread
// over the fleet and the account's bind count is never exceeded: a gateway
// that joins takes the slots others give back, one that dies leaves its
// slots free when its leases expire. A gateway holding no bind of an operator
// hands that operator's batches back to the queue for another gateway
// (errNoBindHere, not counted as a failure).
const (
	// liveKey is a sorted set of gateway instances scored by the time their
	// liveness expires.
	liveKey = "gateway:live"
	// leasePrefix prefixes each slot's lease key.
	leasePrefix = "gateway:bind:"
	// leaseEvery is how often a gateway renews its leases and rebalances.
	leaseEvery = heartbeatEvery
	// leaseTTL is how long a lease outlives its last renewal.
	leaseTTL = heartbeatTTL
)

// leaser holds the gateway's bind leases.
type leaser struct {
	rdb      redis.UniversalClient
	instance string
	ttl      time.Duration
	// renewedAt is when each held slot's lease was last confirmed.
	renewedAt map[*bind]time.Time
}

// slotKey names a bind's slot: the carrier account (operator, system_id,
// address) and the bind's place among that account's configured binds.
func slotKey(b *bind) string {
	return leasePrefix + b.cfg.Operator + ":" + b.cfg.SystemID + "@" + b.cfg.Addr() + "#" + strconv.Itoa(b.slot)
}

// live publishes this gateway as live and counts the live gateways (at least
// this one).
func (l *leaser) live(ctx context.Context, now time.Time) (int, error) {
	p := l.rdb.TxPipeline()
	p.ZAdd(ctx, liveKey, redis.Z{Score: float64(now.Add(l.ttl).UnixMilli()), Member: l.instance})
	p.ZRemRangeByScore(ctx, liveKey, "-inf", strconv.FormatInt(now.UnixMilli(), 10))
	n := p.ZCard(ctx, liveKey)
	if _, err := p.Exec(ctx); err != nil {
		return 0, fmt.Errorf("gateway liveness: %w", err)
	}
	return max(int(n.Val()), 1), nil
}

// leave removes this gateway from the live set and frees the leases it holds.
func (l *leaser) leave(ctx context.Context, held []*bind) {
	l.rdb.ZRem(ctx, liveKey, l.instance)
	for _, b := range held {
		_ = lease.Drop(ctx, l.rdb, slotKey(b), l.instance)
	}
}

// share is an operator's slots per live gateway, rounded up.
func share(slots, live int) int { return int(math.Ceil(float64(slots) / float64(max(live, 1)))) }

// rebalance renews the leases this gateway holds and returns which of the
// operator's binds to open (newly leased) and which to close (lost, over the
// share, or unconfirmed for longer than the lease lives).
func (l *leaser) rebalance(ctx context.Context, ob *operatorBinds, live int, now time.Time) (open, shut []*bind) {
	want := share(len(ob.binds), live)
	var held []*bind
	for _, b := range ob.binds {
		if !b.held() {
			continue
		}
		// Renewed, or taken back when missing (after a Redis restart every lease
		// is gone at once, and the binds must not all drop).
		ok, err := lease.Keep(ctx, l.rdb, slotKey(b), l.instance, l.ttl)
		switch {
		case err == nil && ok:
			l.renewedAt[b] = now
			held = append(held, b)
		case err == nil || now.Sub(l.renewedAt[b]) >= l.ttl:
			shut = append(shut, b) // another gateway has it, or it may have by now
		default:
			held = append(held, b) // Redis unreachable: keep it while the lease lives
		}
	}
	if len(held) > want {
		// Give back the newest-numbered slots first, so the choice is stable.
		sort.Slice(held, func(i, j int) bool { return held[i].slot < held[j].slot })
		for _, b := range held[want:] {
			_ = lease.Drop(ctx, l.rdb, slotKey(b), l.instance)
			shut = append(shut, b)
		}
		return nil, shut
	}
	for _, b := range ob.binds {
		if len(held)+len(open) >= want {
			break
		}
		if b.held() {
			continue
		}
		if ok, err := l.rdb.SetNX(ctx, slotKey(b), l.instance, l.ttl).Result(); err == nil && ok {
			l.renewedAt[b] = now
			open = append(open, b)
		}
	}
	return open, shut
}

// leaseRound publishes this gateway as live, renews its leases and opens and
// closes binds so that it holds its share of every operator's.
func (g *Gateway) leaseRound(ctx context.Context) {
	now := time.Now()
	live, err := g.lease.live(ctx, now)
	if err != nil {
		g.log.Warn("gateway: bind leases", "err", err)
		live = 1 // renewals below still decide what may stay open
	}
	for _, ob := range g.binds.byOp {
		open, shut := g.lease.rebalance(ctx, ob, live, now)
		for _, b := range shut {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := b.shut(cctx); err != nil {
				g.log.Warn("gateway: release bind", "bind", b.name, "err", err)
			}
			cancel()
			g.log.Info("gateway: bind released", "bind", b.name, "live_gateways", live)
		}
		for _, b := range open {
			if g.stoppingNow() {
				_ = lease.Drop(ctx, g.lease.rdb, slotKey(b), g.lease.instance)
				continue
			}
			if err := b.open(); err != nil {
				_ = lease.Drop(ctx, g.lease.rdb, slotKey(b), g.lease.instance)
				g.log.Error("gateway: open leased bind", "bind", b.name, "err", err)
				continue
			}
			g.log.Info("gateway: bind leased", "bind", b.name, "live_gateways", live)
		}
	}
}

// leaseLoop runs leaseRound every leaseEvery until ctx ends.
func (g *Gateway) leaseLoop(ctx context.Context) {
	periodic.Every(ctx, leaseEvery, leaseEvery, g.leaseRound)
}

// leaveLeases frees the leases of the binds, which are closed by now.
func (g *Gateway) leaveLeases(held []*bind) {
	if g.lease == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	g.lease.leave(ctx, held)
}

// stoppingNow reports whether the gateway has begun to stop.
func (g *Gateway) stoppingNow() bool { return closed(g.stopping) }
