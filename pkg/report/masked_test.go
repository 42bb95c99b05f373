package report_test

import (
	"context"
	"errors"
	"testing"

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
