package send_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
)

// sweepWorld is a database, a Redis database with the asynq client and inspector,
// and the send service the sweeper belongs to.
type sweepWorld struct {
	t    *testing.T
	d    testenv.Database
	svc  *send.Service
	ins  *asynq.Inspector
	opt  asynq.RedisClientOpt
	acct int64
}

func newSweepWorld(t *testing.T) *sweepWorld {
	d := testenv.Postgres(t)
	r := testenv.RedisDB(t)
	opt := asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB}
	client := asynq.NewClient(opt)
	ins := asynq.NewInspector(opt)
	t.Cleanup(func() { _ = client.Close(); _ = ins.Close() })
	w := &sweepWorld{t: t, d: d, svc: send.New(d.Pool, client, line.New(d.Pool), nil, 0, nil), ins: ins, opt: opt}
	w.must(d.Pool.QueryRow(context.Background(), `INSERT INTO accounts (name) VALUES ('sweep') RETURNING id`).Scan(&w.acct))
	return w
}

func (w *sweepWorld) must(err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *sweepWorld) exec(sql string, args ...any) {
	w.t.Helper()
	_, err := w.d.Pool.Exec(context.Background(), sql, args...)
	w.must(err)
}

func (w *sweepWorld) count(sql string, args ...any) int {
	w.t.Helper()
	var n int
	w.must(w.d.Pool.QueryRow(context.Background(), sql, args...).Scan(&n))
	return n
}

// sendWith inserts an expanded send of n recipients (status st, cost 230 each) in
// batch 7 and returns its id and its recipients' ids in order.
func (w *sweepWorld) sendWith(status string, n int, st int) (int64, []int64) {
	w.t.Helper()
	ctx := context.Background()
	var id int64
	w.must(w.d.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, recipients, cost, expanded_at)
		VALUES ($1, 'quick', '3000', 'x', $2, $3, $3 * 230, now()) RETURNING id`, w.acct, status, n).Scan(&id))
	rows, err := w.d.Pool.Query(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
		SELECT $1, 7, '98912' || lpad(g::text, 7, '0'), 'mci', 1, 230, $3 FROM generate_series(1, $2::int) g RETURNING id`, id, n, st)
	w.must(err)
	var ids []int64
	for rows.Next() {
		var r int64
		w.must(rows.Scan(&r))
		ids = append(ids, r)
	}
	rows.Close()
	return id, ids
}

// batchTasks lists the pending batch tasks of the mci carrier queue as send:batch.
func (w *sweepWorld) batchTasks() []string {
	w.t.Helper()
	tasks, err := w.ins.ListPendingTasks(jobs.CarrierQueue("mci"))
	if err != nil && !strings.Contains(err.Error(), "not found") {
		w.t.Fatal(err)
	}
	var out []string
	for _, task := range tasks {
		var b jobs.SendBatch
		w.must(json.Unmarshal(task.Payload, &b))
		out = append(out, strings.Join([]string{itoa(b.SendID), itoa(int64(b.Batch))}, ":"))
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A dead gateway's claim: the recipients within its grant may have reached the
// SMSC (unknown outcome, counted as submitted, never resent); the others never
// did: queued again with their batch re-enqueued, or rejected as stopped when the
// send was stopped meanwhile (then refunded when the send closes). A claim still
// renewed is left alone.
func TestSweepTakesOverDeadClaims(t *testing.T) {
	w := newSweepWorld(t)
	ctx := context.Background()
	cfg := send.SweepConfig{Abandoned: time.Minute, Stalled: time.Hour, NoReceipt: 48 * time.Hour}

	running, rIDs := w.sendWith("sending", 10, 7)
	w.exec(`INSERT INTO recipient_claims (send_id, batch, operator, ids, handed, renewed_at)
		VALUES ($1, 7, 'mci', $2, 4, now() - interval '5 minutes')`, running, rIDs)
	stopped, sIDs := w.sendWith("stopped", 5, 7)
	w.exec(`INSERT INTO recipient_claims (send_id, batch, operator, ids, handed, renewed_at)
		VALUES ($1, 7, 'mci', $2, 2, now() - interval '5 minutes')`, stopped, sIDs)
	alive, aIDs := w.sendWith("sending", 3, 7)
	w.exec(`INSERT INTO recipient_claims (send_id, batch, operator, ids, handed) VALUES ($1, 7, 'mci', $2, 1)`, alive, aIDs)

	did, err := w.svc.Sweep(ctx, w.ins, cfg)
	w.must(err)
	if did["abandoned"] != 6 || did["requeued"] != 6 || did["stopped"] != 3 || did["batches_requeued"] != 1 {
		t.Fatalf("sweep did %v", did)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE id = ANY($1) AND status = 0 AND unknown AND submitted_at IS NOT NULL`, rIDs[:4]); n != 4 {
		t.Fatalf("%d of the granted recipients unknown, want 4", n)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE id = ANY($1) AND status = 5 AND NOT unknown`, rIDs[4:]); n != 6 {
		t.Fatalf("%d of the never-handed recipients queued again, want 6", n)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE id = ANY($1) AND status = 6 AND error = 'stopped'`, sIDs[2:]); n != 3 {
		t.Fatalf("%d never-handed recipients of the stopped send rejected, want 3", n)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 7`, alive); n != 3 {
		t.Fatalf("the live claim was touched: %d still claimed", n)
	}
	if n := w.count(`SELECT count(*) FROM recipient_claims`); n != 1 {
		t.Fatalf("%d claims left, want the live one", n)
	}
	if n := w.count(`SELECT submitted FROM sends WHERE id = $1`, running); n != 4 {
		t.Fatalf("running send: submitted %d, want 4", n)
	}
	if n := w.count(`SELECT submitted * 100 + rejected FROM sends WHERE id = $1`, stopped); n != 203 {
		t.Fatalf("stopped send: submitted*100+rejected = %d, want 203", n)
	}
	if n := w.count(`SELECT stopped FROM sends WHERE id = $1`, stopped); n != 3 {
		t.Fatalf("stopped send: %d recipients counted as left unsent by the stop, want 3", n)
	}
	if got := w.batchTasks(); len(got) != 1 || got[0] != itoa(running)+":7" {
		t.Fatalf("batch tasks %v, want the running send's batch 7", got)
	}

	// The stopped send's counters are then complete: the same pass closed it and
	// refunded the three never sent.
	if did["finalized"] != 1 {
		t.Fatalf("sweep did %v, want the stopped send finalized", did)
	}
	if n := w.count(`SELECT refunded FROM sends WHERE id = $1 AND finished_at IS NOT NULL`, stopped); n != 3*230 {
		t.Fatalf("stopped send refunded %d, want %d", n, 3*230)
	}
	// The close is announced: the next fold lists the send as changed (the live
	// pump publishes its status), and its counters are what they were.
	changed, err := w.svc.FoldCounts(ctx)
	w.must(err)
	if !slices.Contains(changed, stopped) {
		t.Fatalf("fold after the close changed %v, want the closed send %d among them", changed, stopped)
	}
	if n := w.count(`SELECT submitted * 100 + rejected FROM sends WHERE id = $1`, stopped); n != 203 {
		t.Fatalf("stopped send after the fold: submitted*100+rejected = %d, want 203", n)
	}
}

// An idle send (nothing recorded for Stalled) is looked at once per Stalled: its
// batch with queued recipients and no task is enqueued again, and recipients
// claimed without a recipient_claims row (before it existed) and untouched for
// Abandoned become unknown.
func TestSweepIdleSend(t *testing.T) {
	w := newSweepWorld(t)
	ctx := context.Background()
	cfg := send.SweepConfig{Abandoned: time.Minute, Stalled: time.Minute, NoReceipt: 48 * time.Hour}
	id, ids := w.sendWith("sending", 4, 5)
	w.exec(`UPDATE recipients SET status = 7, updated_at = now() - interval '10 minutes' WHERE id = $1`, ids[0])
	w.exec(`UPDATE sends SET updated_at = now() - interval '10 minutes' WHERE id = $1`, id)

	did, err := w.svc.Sweep(ctx, w.ins, cfg)
	w.must(err)
	if did["batches_requeued"] != 1 || did["abandoned"] != 1 {
		t.Fatalf("sweep did %v", did)
	}
	if got := w.batchTasks(); len(got) != 1 || got[0] != itoa(id)+":7" {
		t.Fatalf("batch tasks %v", got)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE id = $1 AND status = 0 AND unknown`, ids[0]); n != 1 {
		t.Fatal("the orphan claimed recipient is not unknown")
	}
	if n := w.count(`SELECT count(*) FROM sends WHERE id = $1 AND submitted = 1 AND swept_at IS NOT NULL`, id); n != 1 {
		t.Fatal("send counters or swept_at not set")
	}
	// Looked at: not again before Stalled has passed (its task is gone again).
	_, err = w.ins.DeleteAllPendingTasks(jobs.CarrierQueue("mci"))
	w.must(err)
	w.exec(`UPDATE sends SET updated_at = now() - interval '10 minutes' WHERE id = $1`, id)
	did, err = w.svc.Sweep(ctx, w.ins, cfg)
	w.must(err)
	if did["batches_requeued"] != 0 {
		t.Fatalf("second pass within Stalled did %v", did)
	}
}

// A batch task a gateway took and then died with (before it claimed any of the
// batch) stays active in asynq until its recoverer gives it back, a minute or
// two later. The sweeper enqueues such a batch again once its task has been
// active for Orphaned with no live server working on it, and once only; a
// batch a live server works on is left alone.
func TestSweepRequeuesBatchOfDeadGateway(t *testing.T) {
	w := newSweepWorld(t)
	ctx := context.Background()
	cfg := send.SweepConfig{Abandoned: time.Minute, Stalled: time.Minute, NoReceipt: 48 * time.Hour, Orphaned: 300 * time.Millisecond}
	q := jobs.CarrierQueue("mci")
	client := asynq.NewClient(w.opt)
	defer client.Close()
	sending := func() int64 {
		id, _ := w.sendWith("sending", 3, 5)
		task, err := jobs.NewSendBatch(jobs.SendBatch{SendID: id, Batch: 7, Operator: "mci"}, false)
		w.must(err)
		_, err = client.Enqueue(task)
		w.must(err)
		return id
	}

	// A live server works on the first send's batch.
	alive := sending()
	release := make(chan struct{})
	srv := asynq.NewServer(w.opt, asynq.Config{Concurrency: 1, Queues: map[string]int{q: 1}, LogLevel: asynq.FatalLevel})
	mux := asynq.NewServeMux()
	mux.HandleFunc(jobs.TypeSendBatch, func(context.Context, *asynq.Task) error { <-release; return nil })
	w.must(srv.Start(mux))
	defer srv.Shutdown()
	defer close(release)
	listed := func() bool {
		servers, err := w.ins.Servers()
		w.must(err)
		for _, s := range servers {
			for _, a := range s.ActiveWorkers {
				if a.TaskID == "batch:"+itoa(alive)+":7" {
					return true
				}
			}
		}
		return false
	}
	for deadline := time.Now().Add(15 * time.Second); !listed(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the live server never listed the batch it works on")
		}
	}
	srv.Stop() // takes nothing more: the second batch is the dead gateway's

	// A gateway took the second send's batch and died: asynq's dequeue, by hand.
	dead := sending()
	id := "batch:" + itoa(dead) + ":7"
	rdb := redis.NewClient(&redis.Options{Addr: w.opt.Addr, DB: w.opt.DB})
	defer rdb.Close()
	prefix := "asynq:{" + q + "}:"
	w.must(rdb.LRem(ctx, prefix+"pending", 0, id).Err())
	w.must(rdb.LPush(ctx, prefix+"active", id).Err())
	w.must(rdb.HSet(ctx, prefix+"t:"+id, "state", "active").Err())
	w.must(rdb.ZAdd(ctx, prefix+"lease", redis.Z{Score: float64(time.Now().Add(30 * time.Second).Unix()), Member: id}).Err())
	if info, err := w.ins.GetTaskInfo(q, id); err != nil || info.State != asynq.TaskStateActive {
		t.Fatalf("the dead gateway's batch: %v %v, want active", info, err)
	}

	sweep := func(want int) {
		t.Helper()
		did, err := w.svc.Sweep(ctx, w.ins, cfg)
		w.must(err)
		if did["orphans_requeued"] != want {
			t.Fatalf("sweep did %v, want %d orphaned batches enqueued again", did, want)
		}
	}
	sweep(0) // first seen
	if got := w.batchTasks(); len(got) != 0 {
		t.Fatalf("pending batch tasks %v before Orphaned passed", got)
	}
	time.Sleep(cfg.Orphaned + 50*time.Millisecond)
	sweep(1)
	if got := w.batchTasks(); len(got) != 1 || got[0] != itoa(dead)+":7" {
		t.Fatalf("pending batch tasks %v, want the dead gateway's batch only", got)
	}
	time.Sleep(cfg.Orphaned)
	sweep(0) // still active in asynq, already enqueued again
}

// Recipients whose parts were all accepted but whose receipts never came (not
// flagged unknown: the receipts were lost, or taken for an older message of a
// reused id) become final as not reached once the wait for a receipt is over in a
// send nothing changed for that long; a send still moving, and recipients sent
// within the wait, are left alone.
func TestSweepQuietSendNoReceipt(t *testing.T) {
	w := newSweepWorld(t)
	cfg := send.SweepConfig{Abandoned: time.Minute, Stalled: time.Minute, NoReceipt: time.Hour}
	quiet, ids := w.sendWith(send.StatusSending, 3, 0)
	w.exec(`UPDATE recipients SET status = 1 WHERE id = $1`, ids[1])
	w.exec(`UPDATE recipients SET submitted_at = now() - interval '2 hours', part_states = 'a' WHERE send_id = $1`, quiet)
	w.exec(`UPDATE recipients SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, ids[2])
	w.exec(`UPDATE sends SET submitted = 3, updated_at = now() - interval '2 hours' WHERE id = $1`, quiet)
	moving, _ := w.sendWith(send.StatusSending, 2, 0)
	w.exec(`UPDATE recipients SET submitted_at = now() - interval '2 hours', part_states = 'a' WHERE send_id = $1`, moving)
	w.exec(`UPDATE sends SET submitted = 2 WHERE id = $1`, moving)
	did, err := w.svc.Sweep(context.Background(), nil, cfg)
	w.must(err)
	if did["no_receipt"] != 2 {
		t.Fatalf("no_receipt %d, want 2 (%v)", did["no_receipt"], did)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 3 AND error = 'no-receipt'`, quiet); n != 2 {
		t.Fatalf("%d of the quiet send's old recipients final", n)
	}
	if n := w.count(`SELECT count(*) FROM recipients WHERE status IN (0, 1) AND (send_id = $1 OR id = $2)`, moving, ids[2]); n != 3 {
		t.Fatalf("%d recipients left waiting, want the moving send's two and the recent one", n)
	}
	if n := w.count(`SELECT undelivered FROM sends WHERE id = $1`, quiet); n != 2 {
		t.Fatalf("quiet send counts %d undelivered", n)
	}
}
