package gateway

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chapar/chapar/pkg/smpp"
)

// pacer adapts one bind's submit rate to its SMSC (additive-increase,
// multiplicative-decrease, like TCP): an ESME_RTHROTTLED halves the rate
// (from the rate actually accepted when the bind was not limited yet), and
// every pacerStep without one raises it by pacerRaise while the bind reaches
// its limit, so the bind recovers gradually instead of stopping for a fixed
// pause and bursting again. Once the rate is back above the configured TPS (or,
// with no TPS, far above the rate that was throttled) the pacer stops limiting;
// pkg/smpp's token bucket keeps enforcing the configured TPS.
//
// The responses to submits already in flight when the SMSC starts throttling
// come back throttled too: one cut per pacerCutGap counts them as one signal.
// While the bind is not limited, a submit costs two atomic operations.
type pacer struct {
	limited  atomic.Bool
	accepts  atomic.Int64
	sampleNs atomic.Int64 // when the accepted rate was last sampled

	mu       sync.Mutex
	ceiling  float64 // configured TPS; 0: none
	rate     float64 // current limit; 0: not limiting
	cutFrom  float64 // the rate that was throttled last
	tokens   float64
	last     time.Time // tokens last refilled
	lastCut  time.Time
	lastStep time.Time
	sampleAt time.Time
	sampleN  int64
	measured float64 // accepted per second over the last sampled window

	throttles, cuts int64
	now             func() time.Time
}

const (
	pacerCutGap  = 250 * time.Millisecond
	pacerStep    = 100 * time.Millisecond
	pacerRaise   = 0.10 // per step: about 2.6 times a second
	pacerMeasure = 250 * time.Millisecond
	// pacerMinWindow: a partial window shorter than this is not trusted for
	// more than its count over this long.
	pacerMinWindow = 50 * time.Millisecond
	pacerMinRate   = 1.0
	pacerBurst     = 0.02 // seconds of the rate a bind may send at once
	// pacerFree: with no TPS configured, a rate this many times the
	// throttled one stops being limited.
	pacerFree = 4
)

func newPacer(tps float64) *pacer {
	return &pacer{ceiling: tps, now: time.Now}
}

// PacerStats is a bind's adaptive rate in GET /status.
type PacerStats struct {
	Rate      float64 `json:"rate"` // current submit_sm/s limit; 0: not limited
	Throttles int64   `json:"throttles"`
	Cuts      int64   `json:"cuts"`
}

func (p *pacer) stats() PacerStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stepLocked(p.now())
	return PacerStats{Rate: p.rate, Throttles: p.throttles, Cuts: p.cuts}
}

// observe takes the outcome of one submit (called on the session's read
// loop: it only counts, and samples the accepted rate now and then).
func (p *pacer) observe(err error) {
	switch {
	case err == nil:
		p.accepts.Add(1)
		if now := p.now(); now.UnixNano()-p.sampleNs.Load() >= int64(pacerMeasure) && p.mu.TryLock() {
			p.sampleLocked(now)
			p.mu.Unlock()
		}
	case smpp.IsThrottled(err):
		p.throttled()
	}
}

// sampleLocked closes the measurement window once it is pacerMeasure long.
func (p *pacer) sampleLocked(now time.Time) {
	el := now.Sub(p.sampleAt)
	if el < pacerMeasure {
		return
	}
	n := p.accepts.Load()
	if !p.sampleAt.IsZero() {
		p.measured = float64(n-p.sampleN) / el.Seconds()
	}
	p.sampleAt, p.sampleN = now, n
	p.sampleNs.Store(now.UnixNano())
}

func (p *pacer) throttled() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.throttles++
	if !p.lastCut.IsZero() && now.Sub(p.lastCut) < pacerCutGap {
		return
	}
	p.stepLocked(now)
	// Halve the rate that was throttled: the limit, or what was accepted
	// when the bind was not limited yet or sent far less than its limit.
	from := p.rate
	if est := p.estimateLocked(now); from == 0 || (est > 0 && est < from/2) {
		from = est
	}
	if p.ceiling > 0 && (from == 0 || from > p.ceiling) {
		from = p.ceiling
	}
	p.cutFrom = max(from, 2*pacerMinRate)
	p.rate = p.cutFrom / 2
	p.limited.Store(true)
	p.cuts++
	p.lastCut, p.lastStep = now, now
	p.tokens = min(p.tokens, p.burstLocked())
}

// estimateLocked is the accepted rate: the last measured window, or the
// current one when it shows more.
func (p *pacer) estimateLocked(now time.Time) float64 {
	p.sampleLocked(now)
	est := p.measured
	if n := p.accepts.Load() - p.sampleN; !p.sampleAt.IsZero() && n > 0 {
		est = max(est, float64(n)/max(now.Sub(p.sampleAt).Seconds(), pacerMinWindow.Seconds()))
	}
	return est
}

// stepLocked raises the rate by pacerRaise per pacerStep since the last step,
// to at most twice the rate accepted lately: a limit the bind does not reach
// (the carrier or the handlers are slower) is not raised further.
func (p *pacer) stepLocked(now time.Time) {
	if p.rate == 0 {
		return
	}
	for now.Sub(p.lastStep) >= pacerStep {
		p.lastStep = p.lastStep.Add(pacerStep)
		if est := p.estimateLocked(now); est > 0 && p.rate >= 2*est {
			continue
		}
		p.rate *= 1 + pacerRaise
		if (p.ceiling > 0 && p.rate >= p.ceiling) || (p.ceiling == 0 && p.rate >= pacerFree*p.cutFrom) {
			p.rate = 0
			p.limited.Store(false)
			return
		}
	}
}

func (p *pacer) burstLocked() float64 { return max(1, p.rate*pacerBurst) }

// wait takes a token of the current rate, sleeping until it is due.
func (p *pacer) wait(ctx context.Context) error {
	for p.limited.Load() {
		p.mu.Lock()
		now := p.now()
		p.stepLocked(now)
		if p.rate == 0 {
			p.mu.Unlock()
			return nil
		}
		if !p.last.IsZero() {
			p.tokens = min(p.burstLocked(), p.tokens+now.Sub(p.last).Seconds()*p.rate)
		}
		p.last = now
		if p.tokens >= 1 {
			p.tokens--
			p.mu.Unlock()
			return nil
		}
		d := time.Duration((1 - p.tokens) / p.rate * float64(time.Second))
		p.mu.Unlock()
		t := time.NewTimer(min(d, pacerStep))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	return nil
}
