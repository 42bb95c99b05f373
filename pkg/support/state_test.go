package support

import (
	"testing"

	"github.com/chapar/chapar/pkg/apperr"
)

// TestTransitions lists every state × action with its expected result: the state it
// leads to, or 0 for a refusal (409).
func TestTransitions(t *testing.T) {
	const no State = 0
	want := map[State]map[Action]State{
		WaitingCustomer: {CustomerReply: WaitingSupport, StaffAnswer: Answered, StaffAsk: WaitingCustomer, Close: Closed, ReferReview: ReferredReview, ReferUnit: ReferredUnit},
		WaitingSupport:  {CustomerReply: WaitingSupport, StaffAnswer: Answered, StaffAsk: WaitingCustomer, Close: Closed, ReferReview: ReferredReview, ReferUnit: ReferredUnit},
		Answered:        {CustomerReply: WaitingSupport, StaffAnswer: Answered, StaffAsk: WaitingCustomer, Close: Closed, ReferReview: ReferredReview, ReferUnit: ReferredUnit},
		Closed:          {CustomerReply: no, StaffAnswer: no, StaffAsk: no, Close: no, ReferReview: no, ReferUnit: no},
		ReferredReview:  {CustomerReply: WaitingSupport, StaffAnswer: Answered, StaffAsk: WaitingCustomer, Close: Closed, ReferReview: no, ReferUnit: ReferredUnit},
		ReferredUnit:    {CustomerReply: WaitingSupport, StaffAnswer: Answered, StaffAsk: WaitingCustomer, Close: Closed, ReferReview: ReferredReview, ReferUnit: no},
	}
	n := 0
	for _, from := range States {
		for _, a := range Actions {
			exp, listed := want[from][a]
			if !listed {
				t.Fatalf("%d/%s missing from the table", from, a)
			}
			got, err := Next(from, a)
			n++
			if exp == no {
				e, ok := apperr.As(err)
				if !ok || e.Kind != apperr.Conflict || got != from {
					t.Errorf("%d --%s--> %d, %v: want refused", from, a, got, err)
				}
				if from == Closed && e != nil && e.Message != MsgClosed {
					t.Errorf("closed refusal says %q", e.Message)
				}
				continue
			}
			if err != nil || got != exp {
				t.Errorf("%d --%s--> %d, %v: want %d", from, a, got, err, exp)
			}
		}
	}
	if n != 36 {
		t.Fatalf("%d transitions checked", n)
	}
	if _, err := Next(State(9), Close); err == nil {
		t.Error("an unknown state moved")
	}
	if _, err := Next(Answered, Action("reopen")); err == nil {
		t.Error("an unknown action moved")
	}
}

func TestLabels(t *testing.T) {
	for _, st := range States {
		if st.Label() == "" {
			t.Errorf("state %d has no label", st)
		}
	}
	if Closed.Label() != "بسته شده" || WaitingCustomer.Label() != "در انتظار پاسخ شما" {
		t.Fatal("labels differ from the glossary")
	}
}
