package send_test

import (
	"context"
	"testing"
)

// Requeue enqueues the batches that still hold queued or claimed recipients,
// under new task ids each time (so a second requeue duplicates them too), and
// none of a finished send.
func TestRequeueBatches(t *testing.T) {
	w := newSweepWorld(t)
	ctx := context.Background()
	id, ids := w.sendWith("sending", 4, 5)
	w.exec(`UPDATE recipients SET status = 7 WHERE id = $1`, ids[0])
	done, _ := w.sendWith("done", 2, 2)
	for range 2 {
		n, err := w.svc.RequeueBatches(ctx, id)
		w.must(err)
		if n != 1 {
			t.Fatalf("requeued %d batches, want 1", n)
		}
	}
	if n, err := w.svc.RequeueBatches(ctx, done); err != nil || n != 0 {
		t.Fatalf("finished send: %d batches, %v", n, err)
	}
	if got := w.batchTasks(); len(got) != 2 || got[0] != itoa(id)+":7" || got[1] != got[0] {
		t.Fatalf("tasks %v, want two of %d:7", got, id)
	}
}
