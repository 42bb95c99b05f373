package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/sendrules"
)

// hoursEnv is an API with the default sending hours (07:00–22:00) and a clock
// the test moves, set to a Tehran time of tomorrow.
type hoursEnv struct {
	e     *apitest.Env
	token string
	acct  int64
	now   time.Time
}

func newHoursEnv(t *testing.T, h, m int) *hoursEnv {
	t.Helper()
	e := apitest.Start(t, nil)
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE send_hours SET start_minute = 420, end_minute = 1320`); err != nil {
		t.Fatal(err)
	}
	token, acct := lineOwner(t, e, "hours", "09121117001", 1_000_000)
	x := &hoursEnv{e: e, token: token, acct: acct}
	x.set(1, h, m)
	e.Deps.Sends.SetClock(func() time.Time { return x.now })
	e.Deps.Campaigns.Now = func() time.Time { return x.now }
	return x
}

// set moves the clock to h:m Tehran time, days after today.
func (x *hoursEnv) set(days, h, m int) {
	today := time.Now().In(persian.Tehran)
	x.now = time.Date(today.Year(), today.Month(), today.Day()+days, h, m, 0, 0, persian.Tehran)
}

// at is h:m Tehran time, days after the clock's day.
func (x *hoursEnv) at(days, h, m int) time.Time {
	return time.Date(x.now.Year(), x.now.Month(), x.now.Day()+days, h, m, 0, 0, persian.Tehran)
}

func (x *hoursEnv) balance(t *testing.T) int64 {
	t.Helper()
	b, err := x.e.Deps.Wallet.Balance(context.Background(), x.acct)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A send made now on an advertising line outside 07:00–22:00 is refused with
// outside-send-hours and the next opening as data, nothing stored or held; with
// hold_until_window it is scheduled for 07:00; a service line sends at once.
func TestSendOutsideHoursRefusedOrHeld(t *testing.T) {
	x := newHoursEnv(t, 23, 30)
	ad := map[string]any{"sender": "50004040", "text": "حراج", "numbers": []string{"09121234001"}}
	r := x.e.Do("POST", "/v1/api/send", ad, x.token)
	var info send.OutsideHours
	if r.Status != http.StatusUnprocessableEntity || r.Meta.MessageCode != send.CodeOutsideHours {
		t.Fatalf("outside the window: %d %s", r.Status, r.Raw)
	}
	r.Decode(t, &info)
	if want := x.at(1, 7, 0); !info.NextAllowedAt.Equal(want) || info.Open || info.Window.From != "07:00" || info.Window.To != "22:00" {
		t.Fatalf("refusal data %+v, want next %v", info, want)
	}
	if n := countSends(t, x.e, x.acct); n != 0 || x.balance(t) != 1_000_000 {
		t.Fatalf("%d sends stored, balance %d", n, x.balance(t))
	}
	// The quote names the line's hours and says the send would be held.
	var q send.Quote
	x.e.Must(http.StatusOK, "POST", "/v1/api/send/calculate-price", ad, x.token).Decode(t, &q)
	if q.SendHours == nil || !strings.Contains(q.SendHours.Note, "خط تبلیغاتی فقط از ساعت ۰۷:۰۰ تا ۲۲:۰۰") ||
		!strings.Contains(q.SendHours.Note, "نگه داشته می‌شود") {
		t.Fatalf("quote at 23:30: %+v", q.SendHours)
	}

	ad["hold_until_window"] = true
	var a send.Accepted
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send", ad, x.token).Decode(t, &a)
	var at time.Time
	if err := x.e.DB.Pool.QueryRow(context.Background(), `SELECT send_at FROM sends WHERE id = $1`, a.ID).Scan(&at); err != nil {
		t.Fatal(err)
	}
	if a.Status != send.StatusScheduled || !at.Equal(x.at(1, 7, 0)) {
		t.Fatalf("held send: %+v at %v, want scheduled at 07:00", a, at)
	}

	svc := map[string]any{"sender": "30004040", "text": "رسید", "numbers": []string{"09121234002"}}
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send", svc, x.token).Decode(t, &a)
	if a.Status != send.StatusQueued {
		t.Fatalf("service line at 23:30: %+v", a)
	}
}

// A scheduled send and a recurring campaign that would fire outside the window
// are refused at creation with the next allowed time; the quote says so; the
// same inside the window is accepted.
func TestScheduleOutsideHoursRefused(t *testing.T) {
	x := newHoursEnv(t, 12, 0)
	ad := map[string]any{"sender": "50004040", "text": "حراج", "numbers": []string{"09121234001"}, "send_at": x.at(0, 23, 0)}
	r := x.e.Do("POST", "/v1/api/send", ad, x.token)
	if r.Status != http.StatusUnprocessableEntity || r.Meta.MessageCode != send.CodeOutsideHours || len(r.Meta.Errors["send_at"]) != 1 {
		t.Fatalf("scheduled at 23:00: %d %s", r.Status, r.Raw)
	}
	var info send.OutsideHours
	r.Decode(t, &info)
	if !info.NextAllowedAt.Equal(x.at(1, 7, 0)) {
		t.Fatalf("next allowed %v, want tomorrow 07:00", info.NextAllowedAt)
	}
	var q send.Quote
	x.e.Must(http.StatusOK, "POST", "/v1/api/send/calculate-price", ad, x.token).Decode(t, &q)
	if q.SendHours == nil || q.SendHours.Open || !q.SendHours.NextAllowedAt.Equal(x.at(1, 7, 0)) || q.SendHours.Note == "" {
		t.Fatalf("quote at 23:00: %+v", q.SendHours)
	}
	// A scheduled send is not held: its quote says what its refusal says.
	if q.SendHours.Note != r.Meta.Message {
		t.Fatalf("quote note of a send scheduled at 23:00 %q, want the refusal's %q", q.SendHours.Note, r.Meta.Message)
	}
	ad["send_at"] = x.at(0, 21, 0)
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send", ad, x.token)

	camp := map[string]any{"title": "شبانه", "type": "quick", "sender": "50004040", "text": "حراج",
		"numbers": []string{"09121234567"}, "schedule": map[string]any{"kind": "daily", "time": "23:15"}}
	r = x.e.Do("POST", "/v1/api/send/campaigns", camp, x.token)
	if r.Status != http.StatusUnprocessableEntity || r.Meta.MessageCode != send.CodeOutsideHours || len(r.Meta.Errors["schedule.time"]) != 1 {
		t.Fatalf("campaign at 23:15: %d %s", r.Status, r.Raw)
	}
	camp["schedule"] = map[string]any{"kind": "cron", "cron": "0 */2 * * *"} // every two hours: 22:00 and 00:00 are out
	if r := x.e.Do("POST", "/v1/api/send/campaigns", camp, x.token); r.Status != http.StatusUnprocessableEntity ||
		len(r.Meta.Errors["schedule.cron"]) != 1 {
		t.Fatalf("cron every two hours: %d %s", r.Status, r.Raw)
	}
	camp["schedule"] = map[string]any{"kind": "daily", "time": "10:00"}
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send/campaigns", camp, x.token)
	camp["sender"], camp["schedule"] = "30004040", map[string]any{"kind": "daily", "time": "23:15"}
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send/campaigns", camp, x.token)
}

// The account's own hours narrow the operators' window: at 08:00 an
// advertising send is held until 09:00; a send's own hours override the
// account's; hours outside the operators' window are refused.
func TestOwnHoursNarrowTheWindow(t *testing.T) {
	x := newHoursEnv(t, 8, 0)
	x.e.Must(http.StatusOK, "POST", "/v1/api/send/hours", map[string]any{"own": map[string]any{"from": "۰۹:۰۰", "to": "20:00"}}, x.token)
	var v struct {
		Own *sendrules.Hours `json:"own"`
	}
	x.e.Must(http.StatusOK, "GET", "/v1/api/send/hours", nil, x.token).Decode(t, &v)
	if v.Own == nil || v.Own.From != "09:00" {
		t.Fatalf("own hours %+v", v.Own)
	}
	ad := map[string]any{"sender": "50004040", "text": "حراج", "numbers": []string{"09121234001"}, "hold_until_window": true}
	var a send.Accepted
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send", ad, x.token).Decode(t, &a)
	var at time.Time
	var from *int
	if err := x.e.DB.Pool.QueryRow(context.Background(), `SELECT send_at, hours_start FROM sends WHERE id = $1`, a.ID).Scan(&at, &from); err != nil {
		t.Fatal(err)
	}
	if !at.Equal(x.at(0, 9, 0)) || from == nil || *from != 540 {
		t.Fatalf("held until %v (hours_start %v), want 09:00", at, from)
	}
	ad["send_hours"] = map[string]any{"from": "07:30", "to": "21:00"}
	delete(ad, "hold_until_window")
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send", ad, x.token).Decode(t, &a)
	if a.Status != send.StatusQueued {
		t.Fatalf("send's own hours 07:30–21:00 at 08:00: %+v", a)
	}
	r := x.e.Do("POST", "/v1/api/send/hours", map[string]any{"own": map[string]any{"from": "22:30", "to": "23:30"}}, x.token)
	if r.Status != http.StatusUnprocessableEntity || r.Meta.Errors["send_hours"][0] != sendrules.MsgOwnHoursOutside {
		t.Fatalf("own hours outside the window: %d %s", r.Status, r.Raw)
	}
}

// Staff set an operator's window and a line's kind in the back office; the
// rules read both at once.
func TestStaffSetHoursAndLineKind(t *testing.T) {
	x := newHoursEnv(t, 21, 30)
	staffTok := x.e.Staff("hoursadmin", "09121117002")
	x.e.Must(http.StatusOK, "POST", "/v1/api/admin/send-hours", map[string]any{"operator": "mci", "from": "08:00", "to": "21:00"}, staffTok)
	r := x.e.Do("POST", "/v1/api/admin/send-hours", map[string]any{"operator": "mci", "line_kind": "service", "from": "08:00", "to": "21:00"}, staffTok)
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("hours for service lines: %d %s", r.Status, r.Raw)
	}
	if r := x.e.Do("GET", "/v1/api/admin/send-hours", nil, x.token); r.Status == http.StatusOK {
		t.Fatalf("a customer read the staff settings: %s", r.Raw)
	}
	ad := map[string]any{"sender": "50004040", "text": "حراج", "numbers": []string{"09121234001"}} // an MCI number
	if r := x.e.Do("POST", "/v1/api/send", ad, x.token); r.Meta.MessageCode != send.CodeOutsideHours {
		t.Fatalf("MCI closes at 21:00: %d %s", r.Status, r.Raw)
	}
	var lines []line.Line
	x.e.Must(http.StatusOK, "GET", "/v1/api/admin/accounts/"+itoa(x.acct)+"/lines", nil, staffTok).Decode(t, &lines)
	var adID int64
	for _, l := range lines {
		if l.Number == "50004040" {
			adID = l.ID
		}
	}
	if r := x.e.Do("POST", "/v1/api/admin/accounts/"+itoa(x.acct)+"/lines/kind", map[string]any{"line_id": adID, "kind": "nope"}, staffTok); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("unknown kind: %d %s", r.Status, r.Raw)
	}
	x.e.Must(http.StatusOK, "POST", "/v1/api/admin/accounts/"+itoa(x.acct)+"/lines/kind", map[string]any{"line_id": adID, "kind": "service"}, staffTok)
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send", ad, x.token)
}
