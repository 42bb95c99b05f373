package report_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/report"
)

// TestMaskedReplyNotLookedUpBeforeExpansion: a reply to a masked message (a number
// of the bank) that is not expanded yet (held for review, or a moment after the
// accept) is not found by its number, while an ordinary send's requested number
// is: the answer would tell which number the masked sender is.
func TestMaskedReplyNotLookedUpBeforeExpansion(t *testing.T) {
	ctx := context.Background()
	svc := report.New(pool)
	a, _, _ := account(t)
	const number = "989121234567"
	plain := seedSend(t, a, sendSeed{Status: "held", Requested: 1})
	masked := seedSend(t, a, sendSeed{Status: "held", Requested: 1})
	if _, err := pool.Exec(ctx, `UPDATE sends SET numbers = ARRAY[$2], masked = (id = $3) WHERE id IN ($1, $3)`,
		plain, number, masked); err != nil {
		t.Fatal(err)
	}
	if r, err := svc.RecipientOf(ctx, a, plain, number); err != nil || !r.Pending || r.Mobile != number {
		t.Fatalf("an ordinary send's requested number: %+v %v", r, err)
	}
	if r, err := svc.RecipientOf(ctx, a, masked, number); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a masked reply's number was found: %+v %v", r, err)
	}
}

// expandsBeforeRequested is the reads of a report service that list the send's
// recipients (as the worker does) just before the read of the requested numbers:
// the worker committing between the service's two reads.
type expandsBeforeRequested struct {
	*pgxpool.Pool
	expand func()
}

func (q expandsBeforeRequested) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if strings.Contains(sql, "ANY(s.numbers)") && q.expand != nil {
		q.expand()
	}
	return q.Pool.QueryRow(ctx, sql, args...)
}

// TestRecipientOfExpandedBetweenReads: a send the worker lists between the miss on
// its recipient rows and the read of its requested numbers answers the recipient's
// row (an OTP is listed within milliseconds of its accept), never not found; a
// number the expansion dropped is not found once the send is listed.
func TestRecipientOfExpandedBetweenReads(t *testing.T) {
	ctx := context.Background()
	a, _, _ := account(t)
	const number, dropped = "989121234567", "989121234568"
	id := seedSend(t, a, sendSeed{Status: "sending", Requested: 2})
	if _, err := pool.Exec(ctx, `UPDATE sends SET numbers = ARRAY[$2, $3] WHERE id = $1`, id, number, dropped); err != nil {
		t.Fatal(err)
	}
	expand := func() {
		_, err := pool.Exec(ctx, `WITH r AS (INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status)
			VALUES ($1, 0, $2, 'mci', 1, 190, 2) RETURNING send_id)
			UPDATE sends SET expanded_at = now() WHERE id IN (SELECT send_id FROM r)`, id, number)
		if err != nil {
			t.Error(err)
		}
	}
	svc := report.New(pool)
	svc.ReadFrom(expandsBeforeRequested{Pool: pool, expand: expand})
	r, err := svc.RecipientOf(ctx, a, id, number)
	if err != nil || r.Pending || r.Status != 2 || r.Mobile != number {
		t.Fatalf("listed between the reads: %+v %v", r, err)
	}
	if r, err := report.New(pool).RecipientOf(ctx, a, id, dropped); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a number the listing dropped: %+v %v", r, err)
	}
}
