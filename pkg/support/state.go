package support

import "github.com/chapar/chapar/pkg/apperr"

// State is a request's state (spec §4 "Ticket and suggestion", 1–6).
type State int16

// The states.
const (
	WaitingCustomer State = 1 // در انتظار پاسخ شما
	WaitingSupport  State = 2 // در انتظار پاسخ پشتیبانی
	Answered        State = 3 // پاسخ داده شده
	Closed          State = 4 // بسته شده
	ReferredReview  State = 5 // ارجاع برای بررسی بیشتر
	ReferredUnit    State = 6 // ارجاع به واحد مربوطه
)

// States lists every state in order.
var States = []State{WaitingCustomer, WaitingSupport, Answered, Closed, ReferredReview, ReferredUnit}

var stateLabels = map[State]string{
	WaitingCustomer: "در انتظار پاسخ شما",
	WaitingSupport:  "در انتظار پاسخ پشتیبانی",
	Answered:        "پاسخ داده شده",
	Closed:          "بسته شده",
	ReferredReview:  "ارجاع برای بررسی بیشتر",
	ReferredUnit:    "ارجاع به واحد مربوطه",
}

// Label is the state's Persian label.
func (s State) Label() string { return stateLabels[s] }

// Valid reports whether s is one of the six states.
func (s State) Valid() bool { _, ok := stateLabels[s]; return ok }

// Action is something that moves a request between states.
type Action string

// The actions. The customer replies and closes; staff do the rest (and close).
const (
	CustomerReply Action = "customer_reply" // → 2
	StaffAnswer   Action = "staff_answer"   // → 3
	StaffAsk      Action = "staff_ask"      // → 1: support needs the customer's reply
	Close         Action = "close"          // → 4
	ReferReview   Action = "refer_review"   // → 5
	ReferUnit     Action = "refer_unit"     // → 6
)

// Actions lists every action.
var Actions = []Action{CustomerReply, StaffAnswer, StaffAsk, Close, ReferReview, ReferUnit}

var targets = map[Action]State{
	CustomerReply: WaitingSupport, StaffAnswer: Answered, StaffAsk: WaitingCustomer,
	Close: Closed, ReferReview: ReferredReview, ReferUnit: ReferredUnit,
}

// Next is the state an action leads to from a state. A closed request takes no
// action (409 with the «open a new request» notice); a referral to where the request
// already is, and an unknown action or state, are refused (409).
func Next(from State, a Action) (State, error) {
	to, ok := targets[a]
	switch {
	case !ok || !from.Valid():
		return from, transitionErr(MsgTransition)
	case from == Closed:
		return from, transitionErr(MsgClosed)
	case (a == ReferReview || a == ReferUnit) && from == to:
		return from, transitionErr(MsgTransition)
	}
	return to, nil
}

func transitionErr(msg string) error {
	return apperr.New(apperr.Conflict, msg).WithCode("ticket-state")
}
