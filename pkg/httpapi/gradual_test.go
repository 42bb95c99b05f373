package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/send"
)

// A gradual send's request is checked with Persian field errors (one way of
// pacing, the bounds, an end after the start and inside the window; a
// campaign gives a count, not an end), nothing stored when refused; the quote
// says the pace and the expected end, counting only the open hours; an
// accepted one stores its pace.
func TestGradualSendValidatedQuotedAndStored(t *testing.T) {
	x := newHoursEnv(t, 20, 0)
	numbers := []string{"09121234001", "09121234002", "09121234003", "09121234004"}
	ad := func(g map[string]any) map[string]any {
		return map[string]any{"sender": "50004040", "text": "حراج", "numbers": numbers, "gradual": g}
	}
	refused := []struct {
		gradual map[string]any
		field   string
		msg     string
	}{
		{map[string]any{"per_hour": 5}, "gradual.per_hour", send.MsgGradualPerHour},
		{map[string]any{"per_hour": 600_000}, "gradual.per_hour", send.MsgGradualPerHour},
		{map[string]any{"per_minute": 9000}, "gradual.per_minute", send.MsgGradualPerMin},
		{map[string]any{"per_hour": 100, "per_minute": 2}, "gradual", send.MsgGradualOne},
		{map[string]any{}, "gradual", send.MsgGradualOne},
		{map[string]any{"until": x.at(0, 19, 0)}, "gradual.until", send.MsgGradualUntil},
		{map[string]any{"until": x.at(1, 8, 0)}, "gradual.until", ""}, // crosses the night
	}
	for _, c := range refused {
		r := x.e.Do("POST", "/v1/api/send", ad(c.gradual), x.token)
		if r.Status != http.StatusUnprocessableEntity || len(r.Meta.Errors[c.field]) != 1 ||
			c.msg != "" && r.Meta.Errors[c.field][0] != c.msg {
			t.Fatalf("gradual %v: %d %s", c.gradual, r.Status, r.Raw)
		}
	}
	if n := countSends(t, x.e, x.acct); n != 0 {
		t.Fatalf("%d sends stored after refusals", n)
	}

	// Four recipients at 10 an hour from 20:00 end at 20:24.
	var q send.Quote
	x.e.Must(http.StatusOK, "POST", "/v1/api/send/calculate-price", ad(map[string]any{"per_hour": 10}), x.token).Decode(t, &q)
	if q.Gradual == nil || q.Gradual.PerHour != 10 || !q.Gradual.EstimatedEnd.Equal(x.at(0, 20, 24)) || q.Gradual.Note == "" {
		t.Fatalf("quote at 10 an hour: %+v", q.Gradual)
	}
	// Thirty take three hours: two until 22:00, the third from 07:00 tomorrow.
	many := ad(map[string]any{"per_hour": 10})
	many["numbers"] = numbersN(30)
	x.e.Must(http.StatusOK, "POST", "/v1/api/send/calculate-price", many, x.token).Decode(t, &q)
	if !q.Gradual.EstimatedEnd.Equal(x.at(1, 8, 0)) {
		t.Fatalf("30 at 10 an hour from 20:00 ends %v, want tomorrow 08:00", q.Gradual.EstimatedEnd)
	}
	var a send.Accepted
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send", ad(map[string]any{"until": x.at(0, 21, 0)}), x.token).Decode(t, &a)
	var pace int
	var end time.Time
	if err := x.e.DB.Pool.QueryRow(context.Background(), `SELECT pace_per_hour, pace_end_at FROM sends WHERE id = $1`, a.ID).
		Scan(&pace, &end); err != nil || pace != 4 || !end.Equal(x.at(0, 21, 0)) {
		t.Fatalf("stored pace %d, end %v (%v)", pace, end, err)
	}

	camp := map[string]any{"title": "تدریجی", "type": "quick", "sender": "30004040", "text": "سلام", "numbers": numbers,
		"schedule": map[string]any{"kind": "daily", "time": "10:00"}, "gradual": map[string]any{"until": x.at(1, 12, 0)}}
	r := x.e.Do("POST", "/v1/api/send/campaigns", camp, x.token)
	if r.Status != http.StatusUnprocessableEntity || len(r.Meta.Errors["gradual.until"]) != 1 {
		t.Fatalf("campaign with an end time: %d %s", r.Status, r.Raw)
	}
	camp["gradual"] = map[string]any{"per_minute": 5}
	x.e.Must(http.StatusCreated, "POST", "/v1/api/send/campaigns", camp, x.token)
}

func numbersN(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("0912123%04d", i)
	}
	return out
}
