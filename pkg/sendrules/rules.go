package sendrules

import (
	"time"

	"github.com/chapar/chapar/pkg/line"
)

// Table is the operators' sending hours as staff set them.
type Table struct {
	rules map[key]Window
}

type key struct{ operator, kind string }

// NewTable builds a table from rules (tests and the store).
func NewTable(rules []Rule) *Table {
	t := &Table{rules: map[key]Window{}}
	for _, r := range rules {
		t.rules[key{r.Operator, r.LineKind}] = r.window
	}
	return t
}

// Restricted reports whether lines of kind have sending hours at all: only
// advertising lines do; service and one-time-code lines always send.
func Restricted(kind string) bool { return kind == line.KindAdvertising }

// For returns the window of one operator for a line kind: the operator's own row,
// else the row for every operator, else all day. Lines that are not advertising
// always send.
func (t *Table) For(operator, kind string) Window {
	if !Restricted(kind) {
		return AllDay
	}
	if w, ok := t.rules[key{operator, kind}]; ok {
		return w
	}
	if w, ok := t.rules[key{"", kind}]; ok {
		return w
	}
	return AllDay
}

// Decision is what the rules say of a send at a time.
type Decision struct {
	// Restricted: the send's line has sending hours.
	Restricted bool
	// Window is the hours the send may go in: the operators' windows (every
	// operator the send reaches) narrowed by the account's own hours.
	Window Window
	// Open: the time asked about is inside Window.
	Open bool
	// Next is the time asked about when Open, else the window's next opening
	// (zero when the window is Empty).
	Next time.Time
	// Closes, when Restricted and Open, is when the window closes.
	Closes time.Time
}

// Decide applies the rules to a send on a line of kind reaching ops (none: the
// window for every operator), narrowed by own (nil: the account set none), at t.
func (t *Table) Decide(at time.Time, ops []string, kind string, own *Window) Decision {
	d := Decision{Restricted: Restricted(kind), Window: AllDay}
	if d.Restricted {
		if len(ops) == 0 {
			ops = []string{""}
		}
		for _, op := range ops {
			d.Window = d.Window.Intersect(t.For(op, kind))
		}
		if own != nil {
			d.Window = d.Window.Intersect(*own)
		}
	}
	d.Next = d.Window.Next(at)
	d.Open = !d.Window.Empty() && d.Window.Contains(at)
	if d.Restricted && d.Open {
		d.Closes = dayAt(at, 0, d.Window.To)
	}
	return d
}
