package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/report"
)

// StatsSource loads the current report figures of sends (report.Service).
type StatsSource interface {
	StatsByIDs(ctx context.Context, ids []int64) ([]report.Stats, error)
}

// PumpConfig tunes a ProgressPump; zero fields take the defaults.
type PumpConfig struct {
	// Interval between drains of the dirty set (500 ms): each send's progress is
	// published at most about once per interval.
	Interval time.Duration
	// Batch is how many ids one SPOP takes (500); a drain repeats while batches are full.
	Batch int
	// StatusCache is the size of the local cache of the last published statuses (4096).
	StatusCache int
	// StatusTTL keeps the shared last-status record of a send in Redis (24 h).
	StatusTTL time.Duration
	Log       *slog.Logger
}

// statusKeyPrefix prefixes the shared record of a send's last published status.
const statusKeyPrefix = "live:send_status:"

// maxRounds bounds the SPOP rounds of one drain, so a flood cannot starve the ticker.
const maxRounds = 20

// ProgressPump publishes the progress of the sends whose counters changed: every
// interval it pops their ids from jobs.DirtySends, loads their figures in one query
// and publishes send.progress (the bulk_stats shape, without the text) and, when the
// status changed since it was last published, send.status {id, status}.
//
// Several worker instances may run a pump: SPOP hands each id to one of them, and
// the last published status is shared through Redis (SET … GET), with a small
// local LRU in front so an unchanged status costs no round trip.
type ProgressPump struct {
	rdb  redis.UniversalClient
	src  StatsSource
	pub  *Publisher
	cfg  PumpConfig
	log  *slog.Logger
	last *lru.Cache[int64, string]
}

// NewProgressPump builds a pump.
func NewProgressPump(rdb redis.UniversalClient, src StatsSource, pub *Publisher, cfg PumpConfig) *ProgressPump {
	if cfg.Interval <= 0 {
		cfg.Interval = 500 * time.Millisecond
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 500
	}
	if cfg.StatusCache <= 0 {
		cfg.StatusCache = 4096
	}
	if cfg.StatusTTL <= 0 {
		cfg.StatusTTL = 24 * time.Hour
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	last, _ := lru.New[int64, string](cfg.StatusCache) // only fails for a size ≤ 0
	return &ProgressPump{rdb: rdb, src: src, pub: pub, cfg: cfg, log: cfg.Log.With("component", "live.pump"), last: last}
}

// Run drains the dirty set every interval until ctx ends.
func (p *ProgressPump) Run(ctx context.Context) error {
	t := time.NewTicker(p.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		for round := 0; round < maxRounds; round++ {
			n, err := p.Drain(ctx)
			if err != nil {
				if ctx.Err() == nil {
					p.log.Error("live: progress drain failed", "err", err)
				}
				break
			}
			if n < p.cfg.Batch {
				break
			}
		}
	}
}

// Drain pops one batch of dirty sends and publishes their events; it returns how
// many ids it popped. On failure the ids go back into the set for the next drain.
func (p *ProgressPump) Drain(ctx context.Context) (int, error) {
	raw, err := p.rdb.SPopN(ctx, jobs.DirtySends, int64(p.cfg.Batch)).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return 0, fmt.Errorf("pop dirty sends: %w", err)
	}
	if len(raw) == 0 {
		return 0, nil
	}
	ids := make([]int64, 0, len(raw))
	for _, s := range raw {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
			ids = append(ids, id)
		}
	}
	if err := p.publish(ctx, ids); err != nil {
		// Put them back with a fresh context: ctx may be the one that just ended.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if rerr := MarkDirty(rctx, p.rdb, ids...); rerr != nil {
			p.log.Warn("live: could not re-mark sends", "err", rerr, "sends", len(ids))
		}
		return len(raw), err
	}
	return len(raw), nil
}

func (p *ProgressPump) publish(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	stats, err := p.src.StatsByIDs(ctx, ids)
	if err != nil {
		return err
	}
	changed, err := p.statusChanges(ctx, stats)
	if err != nil {
		return err
	}
	events := make([]Event, 0, len(stats)+len(changed))
	for _, st := range stats {
		events = append(events, Event{AccountID: st.AccountID, Event: EventSendProgress, Data: st})
	}
	for _, st := range changed {
		events = append(events, Event{AccountID: st.AccountID, Event: EventSendStatus,
			Data: StatusChange{ID: st.ID, Status: st.Status}})
	}
	if err := p.pub.PublishMany(ctx, events); err != nil {
		// The statuses were recorded as published; forget them so a retry sends them.
		for _, st := range changed {
			p.last.Remove(st.ID)
		}
		return p.forgetStatuses(ctx, changed, err)
	}
	for _, st := range changed {
		p.last.Add(st.ID, st.Status)
	}
	return nil
}

// StatusChange is the data of a send.status event.
type StatusChange struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

// statusChanges returns the sends whose status differs from the last one published
// by any pump, recording the new one as published.
func (p *ProgressPump) statusChanges(ctx context.Context, stats []report.Stats) ([]report.Stats, error) {
	var check []report.Stats
	for _, st := range stats {
		if last, ok := p.last.Get(st.ID); !ok || last != st.Status {
			check = append(check, st)
		}
	}
	if len(check) == 0 {
		return nil, nil
	}
	pipe := p.rdb.Pipeline()
	cmds := make([]*redis.StatusCmd, len(check))
	for i, st := range check {
		cmds[i] = pipe.SetArgs(ctx, statusKey(st.ID), st.Status, redis.SetArgs{Get: true, TTL: p.cfg.StatusTTL})
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("record send statuses: %w", err)
	}
	var changed []report.Stats
	for i, st := range check {
		prev, err := cmds[i].Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, fmt.Errorf("record send status: %w", err)
		}
		if prev != st.Status {
			changed = append(changed, st)
		} else {
			p.last.Add(st.ID, st.Status)
		}
	}
	return changed, nil
}

// forgetStatuses drops the shared records of statuses that were not published after
// all, and returns cause.
func (p *ProgressPump) forgetStatuses(ctx context.Context, changed []report.Stats, cause error) error {
	if len(changed) == 0 {
		return cause
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	pipe := p.rdb.Pipeline() // one DEL per key: the keys may live in different cluster slots
	for _, st := range changed {
		pipe.Del(rctx, statusKey(st.ID))
	}
	if _, err := pipe.Exec(rctx); err != nil {
		p.log.Warn("live: could not forget statuses", "err", err)
	}
	return cause
}

func statusKey(id int64) string { return statusKeyPrefix + strconv.FormatInt(id, 10) }
