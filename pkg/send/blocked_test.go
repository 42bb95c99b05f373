package send_test

import (
	"testing"

	"github.com/chapar/chapar/pkg/send"
)

// CARRIER_BLOCKED_ERR: a default code for every operator, an operator's own,
// decimal codes compared as numbers; empty means 014.
func TestBlockedCodes(t *testing.T) {
	var zero send.BlockedCodes
	if !zero.Blocked("mci", "014") || !zero.Blocked("mci", "14") || zero.Blocked("mci", "011") || zero.Blocked("mci", "") {
		t.Fatal("the zero value must mean 014 for every operator")
	}
	c, err := send.ParseBlockedCodes("069, irancell=0C1")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		op, err string
		want    bool
	}{
		{"mci", "069", true}, {"mci", "014", false}, {"irancell", "0c1", true}, {"irancell", "069", false}, {"rightel", "69", true},
	} {
		if got := c.Blocked(x.op, x.err); got != x.want {
			t.Errorf("Blocked(%s, %s) = %v", x.op, x.err, got)
		}
	}
	if _, err := send.ParseBlockedCodes("mci="); err == nil {
		t.Fatal("an operator without a code was accepted")
	}
}
