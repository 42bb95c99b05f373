package jobs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// An idle asynq server polls every queue it serves, one Redis round trip per
// queue, every TaskCheckInterval: with the short interval that keeps a
// one-time code fast (20 ms) that is 50 rounds a second per server, whatever
// the load — 0.15 cores per worker+gateway pair on the test bed, more than
// some of the pairs' work. Waking replaces most of that polling:
//
//   - Waker enqueues like asynq.Client and then publishes the task's queue on
//     WakeChannel;
//   - each server's Redis client carries a Gate, which, once a whole round of
//     the server's queues came back empty, holds the next round until a wake
//     for one of its queues arrives or Quiet has passed;
//   - Listen delivers the channel's wakes to the gates of a process.
//
// A task that becomes pending without a wake (a retry or a scheduled task
// moved by asynq's forwarder, a lease recovered) waits at most Quiet more. A
// lost wake (Redis failing over) costs the same, never the task.
const WakeChannel = "chapar:jobs:wake"

// DefaultQuiet is the longest an idle server waits between two rounds. A task
// that becomes pending unannounced has waited for asynq's forwarder (every 5 s)
// already; 1 s more keeps an idle fleet's rounds to one a second per server (the
// 3-pair bed's idle cost 0.097 → 0.071 cores against 250 ms,
// docs/history/testbed-2026-11.md).
const DefaultQuiet = time.Second

// Enqueuer is the asynq.Client method the services use.
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Waker is an asynq client that wakes the servers of a queue it enqueued to.
type Waker struct {
	Enqueuer
	RDB redis.UniversalClient
}

// EnqueueContext enqueues task and, when it is pending at once (not scheduled
// for later), publishes its queue. The task is in Redis either way: a failed
// publish only costs the servers' next round.
func (w Waker) EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	info, err := w.Enqueuer.EnqueueContext(ctx, task, opts...)
	if err != nil || w.RDB == nil || info.State != asynq.TaskStatePending {
		return info, err
	}
	_ = w.RDB.Publish(ctx, WakeChannel, info.Queue).Err()
	return info, nil
}

// Gate is the go-redis hook of one asynq server's client: see WakeChannel.
type Gate struct {
	queues map[string]bool
	quiet  time.Duration
	wake   chan struct{}

	mu      sync.Mutex
	empties int       // consecutive empty dequeues
	idleAt  time.Time // when the last round came back empty; zero once a task was found
}

// NewGate returns the gate of a server serving queues, waiting at most quiet.
func NewGate(queues []string, quiet time.Duration) *Gate {
	g := &Gate{queues: map[string]bool{}, quiet: quiet, wake: make(chan struct{}, 1)}
	for _, q := range queues {
		g.queues[q] = true
	}
	return g
}

// Wake lets the gate's next round start at once, if it serves queue.
func (g *Gate) Wake(queue string) {
	if !g.queues[queue] {
		return
	}
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// DialHook implements redis.Hook.
func (g *Gate) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessPipelineHook implements redis.Hook.
func (g *Gate) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// ProcessHook implements redis.Hook: asynq's dequeue of one queue may wait
// before it runs, and its answer is counted.
func (g *Gate) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !isDequeue(cmd) {
			return next(ctx, cmd)
		}
		g.hold(ctx)
		err := next(ctx, cmd)
		g.count(errors.Is(err, redis.Nil))
		return err
	}
}

// hold waits, after a round came back empty, for a wake or the quiet time.
func (g *Gate) hold(ctx context.Context) {
	g.mu.Lock()
	idleAt := g.idleAt
	g.idleAt = time.Time{}
	g.mu.Unlock()
	wait := g.quiet - time.Since(idleAt)
	if idleAt.IsZero() || wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-g.wake:
	case <-t.C:
	case <-ctx.Done():
	}
}

// count notes a dequeue's answer: a round is over once every queue came back
// empty in a row (asynq asks each queue once per round, and stops at a task).
func (g *Gate) count(empty bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !empty {
		g.empties = 0
		return
	}
	if g.empties++; g.empties >= len(g.queues) {
		g.empties = 0
		g.idleAt = time.Now()
	}
}

// isDequeue reports whether cmd is asynq's dequeue script (rdb.Dequeue: the
// keys pending, paused, active and lease of one queue).
func isDequeue(cmd redis.Cmder) bool {
	args := cmd.Args()
	if len(args) < 7 || (cmd.Name() != "evalsha" && cmd.Name() != "eval") {
		return false
	}
	if n, ok := args[2].(int); !ok || n != 4 {
		return false
	}
	for i, suffix := range []string{":pending", ":paused", ":active", ":lease"} {
		if k, ok := args[3+i].(string); !ok || !strings.HasSuffix(k, suffix) {
			return false
		}
	}
	return true
}

// NewServer returns an asynq server for cfg whose Redis client carries the
// gate of cfg's queues, and that gate for Listen; with quiet 0 it is a plain
// asynq server and the gate nil. Call done after the server's Shutdown: it
// closes the client (asynq does not close a client it was given).
func NewServer(opt asynq.RedisConnOpt, cfg asynq.Config, quiet time.Duration) (srv *asynq.Server, gate *Gate, done func(), err error) {
	if quiet <= 0 {
		return asynq.NewServer(opt, cfg), nil, func() {}, nil
	}
	c, ok := opt.MakeRedisClient().(redis.UniversalClient)
	if !ok {
		return nil, nil, nil, fmt.Errorf("asynq redis option %T: not a go-redis client", opt)
	}
	gate = NewGate(slices.Collect(maps.Keys(cfg.Queues)), quiet)
	c.AddHook(gate)
	return asynq.NewServerFromRedisClient(c, cfg), gate, func() { _ = c.Close() }, nil
}

// Listen delivers the wakes published on WakeChannel to gates until ctx ends
// (go-redis resubscribes after a lost connection).
func Listen(ctx context.Context, rdb redis.UniversalClient, gates ...*Gate) {
	sub := rdb.Subscribe(ctx, WakeChannel)
	defer sub.Close()
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-ch:
			if !ok {
				return
			}
			for _, g := range gates {
				g.Wake(m.Payload)
			}
		}
	}
}

// Requeue enqueues the task of each id, skipping the ids whose task (the same
// task id) is still queued, scheduled or running, and returns how many it
// enqueued. The periodic requeues rebuild with it, from PostgreSQL, the tasks a
// Redis lost (docs/backups.md).
func Requeue(ctx context.Context, q Enqueuer, ids []int64, task func(int64) *asynq.Task) (int, error) {
	n := 0
	for _, id := range ids {
		_, err := q.EnqueueContext(ctx, task(id))
		if errors.Is(err, asynq.ErrTaskIDConflict) {
			continue
		}
		if err != nil {
			return n, fmt.Errorf("requeue %d: %w", id, err)
		}
		n++
	}
	return n, nil
}
