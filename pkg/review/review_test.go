package review_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/validate"
)

// docs is a second consumer of the queues (like documents or patterns will be): it
// records what it was told inside the decision's transaction.
type docs struct {
	decided map[int64]string
	after   int
}

func (*docs) Kind() string  { return "document" }
func (*docs) Title() string { return "مدارک" }
func (d *docs) Decide(ctx context.Context, tx pgx.Tx, it review.Item, dec review.Decision) (func(context.Context), error) {
	if it.SubjectID == 13 {
		return nil, errors.New("subject refused")
	}
	d.decided[it.SubjectID] = map[bool]string{true: "ok", false: dec.Reason}[dec.Approve]
	return func(context.Context) { d.after++ }, nil
}

// Any feature plugs a queue in with the Handler interface: its items are listed
// apart, decided through it in one transaction with the audit, once.
func TestSecondQueueConsumer(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	var acct int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('فروشگاه') RETURNING id`).Scan(&acct); err != nil {
		t.Fatal(err)
	}
	q := review.New(d.Pool)
	h := &docs{decided: map[int64]string{}}
	q.Register(h)
	for _, id := range []int64{11, 12, 13} {
		if err := review.Submit(ctx, d.Pool, "document", acct, id, []string{"مدرک جدید"}, "کارت ملی"); err != nil {
			t.Fatal(err)
		}
	}
	// Submitting a pending subject again changes nothing.
	_ = review.Submit(ctx, d.Pool, "document", acct, 11, nil, "")
	items, total, err := q.List(ctx, review.Filter{Kind: "document", Page: validate.Paging{Page: 1, Limit: 10}})
	if err != nil || total != 3 || items[0].SubjectID != 11 || items[0].AccountName != "فروشگاه" {
		t.Fatalf("list %+v %d %v", items, total, err)
	}
	staff := acl.Identity{UserID: 0, Username: "support", Staff: true}
	if _, err := q.Decide(ctx, items[1].ID, review.Decision{Staff: staff}); !isField(err, "reason") {
		t.Fatalf("reject without reason: %v", err)
	}
	if _, err := q.Decide(ctx, items[0].ID, review.Decision{Approve: true, Staff: staff}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Decide(ctx, items[1].ID, review.Decision{Reason: "ناخوانا", Staff: staff}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Decide(ctx, items[0].ID, review.Decision{Approve: true, Staff: staff}); !isKind(err, apperr.Conflict) {
		t.Fatalf("decided twice: %v", err)
	}
	// A handler's failure leaves the item pending and nothing audited.
	if _, err := q.Decide(ctx, items[2].ID, review.Decision{Approve: true, Staff: staff}); err == nil {
		t.Fatal("refused subject decided")
	}
	if h.decided[11] != "ok" || h.decided[12] != "ناخوانا" || h.after != 2 {
		t.Fatalf("handler saw %v, after %d", h.decided, h.after)
	}
	var pending, audited int
	_ = d.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM review_items WHERE status = 'pending'),
		(SELECT count(*) FROM audit_log WHERE account_id = $1 AND action LIKE 'review.%')`, acct).Scan(&pending, &audited)
	if pending != 1 || audited != 2 {
		t.Fatalf("pending %d, audited %d", pending, audited)
	}
	qs, _ := q.Queues(ctx)
	if len(qs) != 1 || qs[0].Pending != 1 || qs[0].Title != "مدارک" {
		t.Fatalf("queues %+v", qs)
	}
	if _, _, err := q.List(ctx, review.Filter{Kind: "nope", Page: validate.Paging{Page: 1, Limit: 10}}); !isField(err, "kind") {
		t.Fatalf("unknown queue: %v", err)
	}
}

func isField(err error, field string) bool {
	e, ok := apperr.As(err)
	return ok && e.Fields[field] != nil
}

func isKind(err error, k apperr.Kind) bool {
	e, ok := apperr.As(err)
	return ok && e.Kind == k
}
