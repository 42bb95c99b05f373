package gateway

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/chapar/chapar/pkg/smpp"
)

// lane is the fast lane of one bind: the part of its window and of its rate
// that bulk parts may never take, kept for critical ones (one-time codes and
// whatever the sender queues on jobs.CarrierQueueCritical).
//
// A bulk part takes a slot of the bulk window (Window − reserved, released
// with its submit_sm_resp) and a token of the bulk rate (TPS×(1−share)) before
// pkg/smpp's own window and bucket, and it also waits while a critical part of
// the bind is being handed to pkg/smpp. A critical part takes neither: it goes
// straight to pkg/smpp, whose window then always has the reserved slots free
// of bulk, and whose token bucket bulk never drains, so it is written at once
// however many bulk parts wait. Critical parts also skip the adaptive pacer
// (which slows the bulk after ESME_RTHROTTLED); a throttled critical part is
// resubmitted after the session's throttle pause like any other.
//
// With no reservation (share 0) a bulk part costs one atomic load here.
type lane struct {
	window   chan struct{} // bulk slots; nil: bulk may fill the whole window
	rate     *rate.Limiter // bulk rate; nil: no TPS or no reservation
	tick     time.Duration // the grid bulk parts wake on (smpp.OnGrid)
	critical atomic.Int32  // critical parts being handed to pkg/smpp now
	reserved int           // window slots kept for critical parts
}

// laneYield is how often a bulk part looks again while a critical part of the
// bind is being handed over (which takes microseconds unless pkg/smpp's window
// is full of critical parts).
const laneYield = 200 * time.Microsecond

// newLane sizes the reservation of a bind: ceil(share×Window) slots (at least
// one, and always leaving bulk one) and share of its TPS.
func newLane(bc BindConfig) *lane {
	l := &lane{}
	if bc.CriticalShare <= 0 {
		return l
	}
	if bc.Window > 1 {
		l.reserved = min(max(int(math.Ceil(bc.CriticalShare*float64(bc.Window))), 1), bc.Window-1)
		l.window = make(chan struct{}, bc.Window-l.reserved)
	}
	if bc.TPS > 0 {
		r := bc.TPS * (1 - bc.CriticalShare)
		burst := max(1, int(r*pacerBurst))
		l.rate = rate.NewLimiter(rate.Limit(r), burst)
		l.tick = smpp.GridTick(r, burst)
	}
	return l
}

// bulk waits until a bulk part may be submitted and returns the function
// that gives its window slot back (call it once its outcome is known, or at
// once if it was never written).
func (l *lane) bulk(ctx context.Context) (release func(), err error) {
	for l.critical.Load() > 0 {
		t := time.NewTimer(laneYield)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
	release = noRelease
	if l.window != nil {
		select {
		case l.window <- struct{}{}:
			release = l.releaseSlot
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := l.waitRate(ctx); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// waitRate takes a token of the bulk rate on smpp's grid (smpp.WaitGrid), so
// that the parts paced within one tick leave together.
func (l *lane) waitRate(ctx context.Context) error {
	if l.rate == nil {
		return nil
	}
	return smpp.WaitGrid(ctx, l.rate, l.tick, nil)
}

func (l *lane) releaseSlot() { <-l.window }

func noRelease() {}

// LaneStats is a bind's fast lane in GET /status.
type LaneStats struct {
	Reserved     int     `json:"reserved"`       // window slots bulk never takes
	BulkInFlight int     `json:"bulk_in_flight"` // bulk parts holding a slot now
	BulkTPS      float64 `json:"bulk_tps"`       // bulk rate limit; 0: none
}

func (l *lane) stats() LaneStats {
	s := LaneStats{Reserved: l.reserved, BulkInFlight: len(l.window)}
	if l.rate != nil {
		s.BulkTPS = float64(l.rate.Limit())
	}
	return s
}
