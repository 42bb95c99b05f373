package sendrules_test

import (
	"context"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/sendrules"
)

// tehran is a Tehran wall-clock time on 1 Dec 2026.
func tehran(day, h, m int) time.Time { return time.Date(2026, 12, day, h, m, 0, 0, persian.Tehran) }

func TestWindowContainsAndNext(t *testing.T) {
	w := sendrules.Window{From: 7 * 60, To: 22 * 60}
	cases := []struct {
		at   time.Time
		open bool
		next time.Time
	}{
		{tehran(1, 6, 59), false, tehran(1, 7, 0)},
		{tehran(1, 7, 0), true, tehran(1, 7, 0)},
		{tehran(1, 21, 59), true, tehran(1, 21, 59)},
		{tehran(1, 22, 0), false, tehran(2, 7, 0)},
		{tehran(1, 23, 30), false, tehran(2, 7, 0)},
		{tehran(1, 0, 0), false, tehran(1, 7, 0)},
	}
	for _, c := range cases {
		if got := w.Contains(c.at); got != c.open {
			t.Errorf("Contains(%v) = %v, want %v", c.at, got, c.open)
		}
		if got := w.Next(c.at.UTC()); !got.Equal(c.next) {
			t.Errorf("Next(%v) = %v, want %v", c.at, got, c.next)
		}
	}
	if !(sendrules.Window{From: 600, To: 600}).Next(tehran(1, 1, 0)).IsZero() {
		t.Error("an empty window has a next opening")
	}
}

func TestParseHours(t *testing.T) {
	for in, ok := range map[[2]string]bool{
		{"07:00", "22:00"}: true, {"۰۷:۳۰", "۲۱:۰۰"}: true, {"00:00", "24:00"}: true,
		{"22:00", "07:00"}: false, {"7", "22:00"}: false, {"07:60", "22:00"}: false, {"24:00", "24:00"}: false,
	} {
		if _, got := (sendrules.Hours{From: in[0], To: in[1]}).Window(); got != ok {
			t.Errorf("%v: ok = %v, want %v", in, got, ok)
		}
	}
}

func TestDecideReadsLineKindOperatorAndOwnHours(t *testing.T) {
	tbl := sendrules.NewTable(nil)
	d := tbl.Decide(tehran(1, 23, 0), nil, line.KindAdvertising, nil)
	if d.Restricted != true || !d.Open {
		t.Fatalf("no rows: advertising is restricted but open all day, got %+v", d)
	}
	ctx := context.Background()
	db := testenv.Postgres(t)
	svc := sendrules.New(db.Pool)
	tbl, err := svc.Table(ctx)
	if err != nil {
		t.Fatal(err)
	}
	night := tehran(1, 23, 0)
	if d := tbl.Decide(night, []string{operator.MCI}, line.KindAdvertising, nil); d.Open || !d.Next.Equal(tehran(2, 7, 0)) {
		t.Errorf("default: advertising at 23:00 = %+v, want closed until 07:00", d)
	}
	for _, kind := range []string{line.KindService, "otp"} {
		if d := tbl.Decide(night, []string{operator.MCI}, kind, nil); !d.Open || d.Restricted {
			t.Errorf("%s lines always send, got %+v", kind, d)
		}
	}
	staff := acl.Identity{UserID: 0, Username: "staff"}
	if _, err := svc.SetRule(ctx, staff, sendrules.Rule{Operator: operator.Irancell, From: "08:00", To: "21:00"}, ""); err != nil {
		t.Fatal(err)
	}
	tbl, _ = svc.Table(ctx)
	at := tehran(1, 7, 30)
	if d := tbl.Decide(at, []string{operator.MCI}, line.KindAdvertising, nil); !d.Open {
		t.Errorf("MCI at 07:30 is open, got %+v", d)
	}
	if d := tbl.Decide(at, []string{operator.MCI, operator.Irancell}, line.KindAdvertising, nil); d.Open ||
		!d.Next.Equal(tehran(1, 8, 0)) || d.Window.String() != "08:00–21:00" {
		t.Errorf("MCI and Irancell at 07:30 = %+v, want closed until 08:00", d)
	}
	own := sendrules.Window{From: 9 * 60, To: 20 * 60}
	if d := tbl.Decide(tehran(1, 8, 30), []string{operator.MCI}, line.KindAdvertising, &own); d.Open ||
		!d.Next.Equal(tehran(1, 9, 0)) || d.Window != own {
		t.Errorf("own hours narrow the window, got %+v", d)
	}
	if d := tbl.Decide(tehran(1, 8, 30), []string{operator.MCI}, line.KindService, &own); !d.Open {
		t.Errorf("own hours hold only advertising sends, got %+v", d)
	}
}

func TestSettingsRefuseBadInput(t *testing.T) {
	ctx := context.Background()
	db := testenv.Postgres(t)
	svc := sendrules.New(db.Pool)
	staff := acl.Identity{Username: "staff"}
	for _, in := range []sendrules.Rule{
		{Operator: "nope", From: "07:00", To: "22:00"},
		{LineKind: line.KindService, From: "07:00", To: "22:00"},
		{From: "22:00", To: "07:00"},
	} {
		if _, err := svc.SetRule(ctx, staff, in, ""); !isInvalid(err) {
			t.Errorf("%+v: err = %v, want a 422", in, err)
		}
	}
	if err := svc.DeleteRule(ctx, staff, "", line.KindAdvertising, ""); !isInvalid(err) {
		t.Errorf("deleting the default: err = %v, want a 422", err)
	}
	rules, err := svc.Rules(ctx)
	if err != nil || len(rules) != 1 || rules[0].From != "07:00" || rules[0].To != "22:00" {
		t.Fatalf("rules = %+v, %v; want the default alone", rules, err)
	}
	if _, err := svc.CheckOwn(ctx, sendrules.Hours{From: "22:30", To: "23:30"}); !isInvalid(err) {
		t.Errorf("own hours outside the window: err = %v, want a 422", err)
	}
}

func isInvalid(err error) bool {
	e, ok := apperr.As(err)
	return ok && e.Kind == apperr.Invalid
}
