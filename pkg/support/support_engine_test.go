package support_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/support"
)

// TestStaffAnswerTextsTheOwnerAndGoesLive: staff's answer reaches the owner's
// handset at the carrier simulator as the platform's own message and the open panel
// as ticket.updated; with the setting off no SMS is queued.
func TestStaffAnswerTextsTheOwnerAndGoesLive(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	tok, _ := e.Account("answered", "09121230001", "30001231", "service", 0)
	staff := e.Staff("agent9", "09121230099")
	ws := e.Socket(tok)
	d := open(e.Env, tok)
	mobile := "989121230001"
	texts := func() []string {
		var out []string
		for _, m := range e.Sim.Messages(mobile) {
			if strings.Contains(m.Text, "پشتیبانی") {
				out = append(out, m.Text)
			}
		}
		return out
	}

	if r := staffAnswer(e.Env, staff, d.ID, ""); r.Status != 200 {
		t.Fatalf("answer: %d %s", r.Status, r.Raw)
	}
	// The live event: the create's, then the answer's with state 3.
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		var msg struct {
			Event string         `json:"event"`
			Data  map[string]any `json:"data"`
		}
		if err := ws.ReadJSON(&msg); err != nil {
			t.Fatalf("no ticket.updated with state 3: %v", err)
		}
		if msg.Event == "ticket.updated" && msg.Data["state"] == float64(support.Answered) && msg.Data["id"] == float64(d.ID) {
			break
		}
	}
	e.Wait("the answer SMS at the handset", 20*time.Second, func() bool { return len(texts()) == 1 })
	if got := texts()[0]; got != support.AnswerText(d.Number) {
		t.Fatalf("handset got %q", got)
	}

	// Off: the next answer texts nobody; on again: the one after does.
	e.Must(200, "POST", "/v1/api/ticket/settings", map[string]bool{"sms_on_answer": false}, tok)
	staffAnswer(e.Env, staff, d.ID, "staff_ask")
	e.Must(200, "POST", "/v1/api/ticket/settings", map[string]bool{"sms_on_answer": true}, tok)
	d2 := open(e.Env, tok)
	staffAnswer(e.Env, staff, d2.ID, "")
	e.Wait("the third answer's SMS", 20*time.Second, func() bool { return len(texts()) >= 2 })
	time.Sleep(500 * time.Millisecond)
	got := texts()
	if len(got) != 2 || got[1] != support.AnswerText(d2.Number) {
		t.Fatalf("handset texts %s", fmt.Sprint(got))
	}
}
