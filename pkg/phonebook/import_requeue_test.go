package phonebook

import (
	"context"
	"fmt"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
)

// TestRequeueStuckImports: an import left running by a lost task is enqueued
// again, once; one whose task is still queued, one that moves and one that is
// over are left alone; after Redis loses its queues the stuck one comes back. The
// search-index task of every import still pending is queued the same way.
func TestRequeueStuckImports(t *testing.T) {
	ctx := context.Background()
	f := newImportFixture(t)
	r := testenv.RedisDB(t)
	opt := asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB}
	client, ins := asynq.NewClient(opt), asynq.NewInspector(opt)
	t.Cleanup(func() { client.Close(); ins.Close() })
	f.s.queue = client
	var moving, over int64
	if err := f.d.Pool.QueryRow(ctx, `WITH m AS (INSERT INTO contact_imports (account_id, phonebook_id, file_id)
			VALUES ($1, $2, $3) RETURNING id),
		o AS (INSERT INTO contact_imports (account_id, phonebook_id, file_id, status, updated_at)
			VALUES ($1, $2, $3, 'done', now() - interval '1 hour') RETURNING id)
		SELECT (SELECT id FROM m), (SELECT id FROM o)`, f.account, f.book, f.file).Scan(&moving, &over); err != nil {
		t.Fatal(err)
	}
	if _, err := f.d.Pool.Exec(ctx, `UPDATE contact_imports SET updated_at = now() - interval '2 minutes' WHERE id = $1`,
		f.im.ID); err != nil {
		t.Fatal(err)
	}
	requeue := func(want int) {
		t.Helper()
		if n, err := f.s.RequeueStuckImports(ctx); err != nil || n != want {
			t.Fatalf("requeued %d (%v), want %d", n, err, want)
		}
	}
	requeue(1)
	requeue(0) // its task is queued
	for id, want := range map[int64]bool{f.im.ID: true, moving: false, over: false} {
		_, err := ins.GetTaskInfo(jobs.QueueDefault, fmt.Sprintf("contacts-import:%d", id))
		if (err == nil) != want {
			t.Errorf("import %d: task %v, want queued %v", id, err, want)
		}
	}
	if err := r.Client.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	requeue(1)

	// Every import is pending from its creation; the one over, without contacts,
	// is done at its first index run and queued no more.
	index := func(want int) {
		t.Helper()
		if n, err := f.s.QueuePendingIndexes(ctx); err != nil || n != want {
			t.Fatalf("queued %d search indexes (%v), want %d", n, err, want)
		}
	}
	index(3)
	index(0) // queued already (their task ids are taken)
	if _, err := f.s.IndexImport(ctx, over); err != nil {
		t.Fatal(err)
	}
	if err := r.Client.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	index(2)
}
