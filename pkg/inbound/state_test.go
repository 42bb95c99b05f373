package inbound

import (
	"testing"

	"github.com/chapar/chapar/pkg/gateway"
)

// A failed receipt's state text (and a non-zero error code) becomes its recipient's
// error; a delivered or pending one records nothing.
func TestReceiptState(t *testing.T) {
	cases := []struct {
		in   gateway.Inbound
		want string
	}{
		{gateway.Inbound{Stat: gateway.StatFailed, State: "expired", Err: "000"}, "EXPIRED"},
		{gateway.Inbound{Stat: gateway.StatFailed, State: "UNDELIV", Err: "011"}, "UNDELIV err:011"},
		{gateway.Inbound{Stat: gateway.StatFailed}, "UNKNOWN"},
		{gateway.Inbound{Stat: gateway.StatDelivered, State: "DELIVRD"}, ""},
		{gateway.Inbound{Stat: gateway.StatPending, State: "ENROUTE"}, ""},
	}
	for _, c := range cases {
		if got := receiptState(c.in); got != c.want {
			t.Errorf("receiptState(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}
