package send

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/jobs"
)

// Batch tasks a dead gateway took. A gateway takes a batch task before it claims
// any of the batch's recipients (it may wait for a lane or a bind first), so a
// gateway killed then leaves no claim for the sweeper, only a task active in
// asynq that nobody works on. asynq's recoverer gives such a task back once its
// lease has been expired for 30 s, looking once a minute: 60–120 s after the
// death, while the batch's recipients wait (one batch of 1,000 held the chaos
// suite's kill-gateway 61 s). The sweeper enqueues those batches again itself,
// once a task has been so for SweepConfig.Orphaned.

// orphanPage bounds the active tasks read per carrier queue and scan.
const orphanPage = 500

// orphanWatch is the sweeper's memory of orphaned batch tasks across passes.
type orphanWatch struct {
	mu   sync.Mutex
	last time.Time              // the last scan
	seen map[string]orphanState // by queue/task id
}

// orphanState is when a task was first seen orphaned, and whether its batch was
// enqueued again (it stays active until asynq's recoverer moves it).
type orphanState struct {
	first    time.Time
	requeued bool
}

// sweepOrphans enqueues again, under a new task id, every batch whose task has
// been active with no live server working on it for grace (SweepConfig.Orphaned),
// looking at most twice per grace. Should the old task run after all (asynq's
// recoverer), it finds nothing left to claim.
func (s *Service) sweepOrphans(ctx context.Context, tasks TaskLookup, grace time.Duration, did map[string]int) error {
	if grace <= 0 {
		grace = DefaultOrphaned
	}
	w := &s.orphans
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	if tasks == nil || now.Sub(w.last) < grace/2 {
		return nil
	}
	w.last = now
	found, err := orphans(tasks)
	if err != nil {
		return fmt.Errorf("sweep orphaned batches: %w", err)
	}
	seen := make(map[string]orphanState, len(found))
	defer func() { w.seen = seen }()
	for key, t := range found {
		st, ok := w.seen[key]
		if !ok {
			st.first = now
		}
		if !st.requeued && now.Sub(st.first) >= grace {
			if err := s.requeueOrphan(ctx, t); err != nil {
				seen[key] = st
				return err
			}
			st.requeued = true
			did["orphans_requeued"]++
		}
		seen[key] = st
	}
	return nil
}

// requeueOrphan enqueues the batch of an orphaned task again, unless its send
// is no longer sending (a paused send is enqueued again by its resume).
func (s *Service) requeueOrphan(ctx context.Context, t *asynq.TaskInfo) error {
	var b jobs.SendBatch
	if err := json.Unmarshal(t.Payload, &b); err != nil {
		return nil // a malformed payload: asynq's recoverer and the handler deal with it
	}
	var sending bool
	if err := s.pool.QueryRow(ctx, `SELECT status = $2 FROM sends WHERE id = $1`, b.SendID, StatusSending).
		Scan(&sending); err != nil || !sending {
		return nil
	}
	// One new id per batch and orphaned task: a later scan finds the id taken.
	suffix := "orphan" + strings.ReplaceAll(t.ID, ":", "-")
	return s.enqueueBatches(ctx, b.SendID, []batchKey{{operator: b.Operator, batch: b.Batch}},
		jobs.IsCarrierQueueCritical(t.Queue), suffix)
}

// orphans are the batch tasks of the carrier queues that are active with no
// live server working on them, by queue and id. A live server lists a task it
// started within its heartbeat (5 s); a dead one leaves the list within two.
func orphans(tasks TaskLookup) (map[string]*asynq.TaskInfo, error) {
	servers, err := tasks.Servers()
	if err != nil {
		return nil, err
	}
	working := map[string]bool{}
	for _, srv := range servers {
		for _, w := range srv.ActiveWorkers {
			working[w.TaskID] = true
		}
	}
	queues, err := tasks.Queues()
	if err != nil {
		return nil, err
	}
	out := map[string]*asynq.TaskInfo{}
	for _, q := range queues {
		if !strings.HasPrefix(q, "carrier:") {
			continue
		}
		active, err := tasks.ListActiveTasks(q, asynq.PageSize(orphanPage))
		if err != nil {
			return nil, fmt.Errorf("active tasks of %s: %w", q, err)
		}
		for _, t := range active {
			if t.Type == jobs.TypeSendBatch && !working[t.ID] {
				out[q+"/"+t.ID] = t
			}
		}
	}
	return out, nil
}
