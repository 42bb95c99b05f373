package offline

import (
	"context"
	"testing"
	"time"
)

type countingInquiry struct{ n int }

func (c *countingInquiry) Owner(_ context.Context, card string) (CardOwner, error) {
	c.n++
	return CardOwner{CardNumber: card, Owner: "owner"}, nil
}

// The destination card's owner is asked of the bank once per OwnerCacheTTL.
func TestCardOwnerCached(t *testing.T) {
	inq := &countingInquiry{}
	d := &Directory{Dest: Destination{CardNumber: "6037991234567893"}, Inquiry: inq}
	for range 3 {
		if o, err := d.CardOwner(context.Background()); err != nil || o.Owner != "owner" {
			t.Fatalf("owner %+v %v", o, err)
		}
	}
	if inq.n != 1 {
		t.Fatalf("asked the bank %d times within the TTL", inq.n)
	}
	d.until = time.Now().Add(-time.Second) // the TTL has passed
	_, _ = d.CardOwner(context.Background())
	if inq.n != 2 {
		t.Fatalf("asked the bank %d times after the TTL", inq.n)
	}
	if o, _ := (SandboxInquiry{Dest: Destination{CardNumber: "6037991234567893", CardOwner: "چاپار"}}).Owner(context.Background(), "6219861234567890"); o.Owner != "" || o.BankName != "بانک سامان" {
		t.Fatalf("another card: %+v", o)
	}
}
