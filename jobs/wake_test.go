package jobs_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
)

// dequeues signals every asynq dequeue its client runs (a hook added after
// the gate, so it sees the calls the gate let through).
type dequeues chan time.Time

func (d dequeues) DialHook(next redis.DialHook) redis.DialHook { return next }
func (d dequeues) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (d dequeues) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if a := cmd.Args(); len(a) > 3 && (cmd.Name() == "evalsha" || cmd.Name() == "eval") && fmt.Sprint(a[2]) == "4" {
			select {
			case d <- time.Now():
			default:
			}
		}
		return next(ctx, cmd)
	}
}

// TestWakeGate runs a real asynq server behind a gate (quiet 2 s, asynq's own
// poll 10 ms): idle, it asks its queues about once per quiet time instead of
// a hundred times a second; a task enqueued without a wake waits for the
// quiet time; one enqueued through a Waker is taken at once.
func TestWakeGate(t *testing.T) {
	r := testenv.RedisDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	qa, qb := fmt.Sprintf("wake-a-%d", os.Getpid()), fmt.Sprintf("wake-b-%d", os.Getpid())
	opt := asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB}
	const quiet = 2 * time.Second

	client := opt.MakeRedisClient().(redis.UniversalClient)
	defer client.Close()
	gate := jobs.NewGate([]string{qa, qb}, quiet)
	client.AddHook(gate)
	calls := make(dequeues, 1000)
	client.AddHook(calls)
	srv := asynq.NewServerFromRedisClient(client, asynq.Config{Concurrency: 2, Queues: map[string]int{qa: 1, qb: 1},
		TaskCheckInterval: 10 * time.Millisecond, LogLevel: asynq.FatalLevel})
	handled := make(chan string, 10)
	mux := asynq.NewServeMux()
	mux.HandleFunc("wake:test", func(_ context.Context, task *asynq.Task) error {
		handled <- string(task.Payload())
		return nil
	})
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	go jobs.Listen(ctx, r.Client, gate)

	// Idle: after its first rounds, a second and a half sees at most two rounds of two queues.
	<-calls
	time.Sleep(100 * time.Millisecond)
	drain(calls)
	time.Sleep(1500 * time.Millisecond)
	if n := len(calls); n > 4 {
		t.Fatalf("idle server: %d dequeues in 1.5 s behind a 2 s gate, want at most 4", n)
	}

	// Right after an empty round, a task enqueued without a wake waits for the quiet time.
	waitRound(t, calls)
	plain := asynq.NewClientFromRedisClient(r.Client)
	if _, err := plain.EnqueueContext(ctx, asynq.NewTask("wake:test", []byte("plain")), asynq.Queue(qb)); err != nil {
		t.Fatal(err)
	}
	enq := time.Now()
	select {
	case got := <-handled:
		t.Fatalf("task %q handled %v after it was enqueued without a wake: the gate did not hold", got, time.Since(enq))
	case <-time.After(800 * time.Millisecond):
	}
	expect(t, handled, "plain", 3*time.Second)

	// A Waker's task is taken at once, though the gate was holding.
	waitRound(t, calls)
	waker := jobs.Waker{Enqueuer: plain, RDB: r.Client}
	if _, err := waker.EnqueueContext(ctx, asynq.NewTask("wake:test", []byte("woken")), asynq.Queue(qb)); err != nil {
		t.Fatal(err)
	}
	expect(t, handled, "woken", 500*time.Millisecond)
}

// waitRound returns once the server has just finished an empty round (no
// dequeue for 100 ms after one), so that its gate is holding.
func waitRound(t *testing.T, calls dequeues) {
	t.Helper()
	drain(calls)
	select {
	case <-calls:
	case <-time.After(5 * time.Second):
		t.Fatal("no dequeue within 5 s")
	}
	for {
		select {
		case <-calls:
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

func drain(calls dequeues) {
	for len(calls) > 0 {
		<-calls
	}
}

func expect(t *testing.T, handled chan string, want string, within time.Duration) {
	t.Helper()
	start := time.Now()
	select {
	case got := <-handled:
		if got != want {
			t.Fatalf("handled %q, want %q", got, want)
		}
	case <-time.After(within):
		t.Fatalf("task %q not handled within %v", want, within)
	}
	t.Logf("%s: handled %v after the check began", want, time.Since(start).Round(time.Millisecond))
}
