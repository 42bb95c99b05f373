package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/sms"
)

// partsText is a Latin text of exactly n parts.
func partsText(t *testing.T, n int) string {
	t.Helper()
	text := strings.Repeat("x", 153*(n-1)+10)
	if c := sms.Count(text, false); c.Parts != n {
		t.Fatalf("text of %d parts, want %d", c.Parts, n)
	}
	return text
}

// recipientParts is one recipient's row of the report's recipients list.
type recipientParts struct {
	Mobile     string   `json:"mobile"`
	Status     int      `json:"status"`
	PartStates []string `json:"part_states"`
}

// reportParts returns the part states of a send's recipients by mobile, as the
// report API lists them.
func reportParts(t *testing.T, e *enginetest.Engine, token string, sendID int64) map[string]recipientParts {
	t.Helper()
	var rows []recipientParts
	e.Must(200, "GET", "/v1/api/report/recipients?id="+itoa(sendID)+"&limit=100", nil, token).Decode(t, &rows)
	out := map[string]recipientParts{}
	for _, r := range rows {
		out[r.Mobile] = r
	}
	return out
}

func recipientRow(t *testing.T, e *enginetest.Engine, sendID int64, mobile string) (status int16, unknown bool, states string, cost int64) {
	t.Helper()
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT status, unknown, part_states, cost FROM recipients
		WHERE send_id = $1 AND mobile = $2`, sendID, mobile).Scan(&status, &unknown, &states, &cost); err != nil {
		t.Fatal(err)
	}
	return status, unknown, states, cost
}

// The carrier restarts its message id counter every 60 ids, so ids are reused
// within the send, and its receipts come at once, while the next part of the
// same recipient is still paced (40 submit_sm/s: a 10-part recipient takes a
// quarter of a second). A receipt must find its own part (recorded as soon as
// it is accepted), never the previous message with the same id: every
// recipient is delivered, none stays at "reached telecom".
func TestReceiptForReusedMessageID(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{
		Sim:     func(c *smscsim.Config) { c.IDRestartAfter = 60 },
		Gateway: map[string]string{"GATEWAY_TPS": "40"},
	})
	token, acct := e.Account("reuse", "09121110031", "30003131", "service", 20_000_000)
	const n, parts = 10, 10
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": partsText(t, parts), "numbers": numbersFrom("0912", n)},
		token).Decode(t, &a)
	assertAccounted(t, e, acct, a.ID, n)
	if got := e.Sim.Stats().Total.Accepted; got < n*parts { // and the login code
		t.Fatalf("carrier accepted %d parts, want %d", got, n*parts)
	}
	var ids int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT count(DISTINCT k.id) FROM recipients r
		CROSS JOIN LATERAL unnest(r.msg_ids) AS k(id) WHERE r.send_id = $1 AND k.id <> ''`, a.ID).Scan(&ids); err != nil {
		t.Fatal(err)
	}
	if ids > 60 {
		t.Fatalf("%d distinct message ids: the carrier reused none", ids)
	}
	if s := sendStats(t, e, a.ID); s.Delivered != n {
		t.Fatalf("stats %+v: every recipient should be delivered", s)
	}
}

// The carrier accepts parts 2 and 3 of one recipient's 4-part message but its
// submit_sm_resp never comes: those parts are unknown (never resent), their
// receipts come after those of the known parts. They are reconciled to the
// recipient's unknown parts by handset, and the recipient ends delivered; the
// send counts it as partial.
func TestLostSubmitResponsesReconciled(t *testing.T) {
	const lost = "989121120002"
	e := enginetest.Start(t, enginetest.Options{
		Sim: func(c *smscsim.Config) {
			c.ReceiptDelayMin = 2 * time.Second
			c.SubmitFaults = []smscsim.SubmitFault{{Dest: lost, Part: 2, DropResponse: true}, {Dest: lost, Part: 3, DropResponse: true}}
		},
		Gateway: map[string]string{"GATEWAY_RESPONSE_TIMEOUT": "1s"},
	})
	token, acct := e.Account("lostresp", "09121110032", "30003232", "service", 20_000_000)
	var a send.Accepted
	numbers := append(numbersFrom("0912", 5), "09121120002")
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": partsText(t, 4), "numbers": numbers}, token).Decode(t, &a)
	assertAccounted(t, e, acct, a.ID, len(numbers))
	status, unknown, states, _ := recipientRow(t, e, a.ID, lost)
	if status != send.RcptDelivered || unknown || states != "dddd" {
		t.Fatalf("recipient with lost responses: status %d unknown %v parts %q", status, unknown, states)
	}
	if s := sendStats(t, e, a.ID); s.Delivered != len(numbers) || s.Refunded != 0 {
		t.Fatalf("stats %+v", s)
	}
	var partial int
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT partial FROM sends WHERE id = $1`, a.ID).Scan(&partial); err != nil {
		t.Fatal(err)
	}
	if partial != 1 {
		t.Fatalf("%d partial recipients, want 1", partial)
	}
	if got := reportParts(t, e, token, a.ID)[lost].PartStates; strings.Join(got, ",") != "delivered,delivered,delivered,delivered" {
		t.Fatalf("report part states %v", got)
	}
}

// The carrier refuses parts 7 to 12 of one recipient's 12-part message: the six
// parts it accepted were sent and are paid for (with the per-send fee), the six
// it refused are refunded, exactly; the report shows them rejected.
func TestPartlyRejectedRefunded(t *testing.T) {
	const cut = "989121130003"
	var faults []smscsim.SubmitFault
	for p := 7; p <= 12; p++ {
		faults = append(faults, smscsim.SubmitFault{Dest: cut, Part: p, Status: 0x45})
	}
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.SubmitFaults = faults }})
	token, acct := e.Account("partrej", "09121110033", "30003333", "service", 50_000_000)
	var a send.Accepted
	numbers := append(numbersFrom("0912", 3), "09121130003")
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": partsText(t, 12), "numbers": numbers}, token).Decode(t, &a)
	assertAccounted(t, e, acct, a.ID, len(numbers))
	status, _, states, cost := recipientRow(t, e, a.ID, cut)
	if status != send.RcptUndelivered || states != "ddddddrrrrrr" {
		t.Fatalf("partly rejected recipient: status %d parts %q", status, states)
	}
	tariffs, err := operator.Load(context.Background(), e.DB.Pool, acct)
	if err != nil {
		t.Fatal(err)
	}
	if s := sendStats(t, e, a.ID); s.Refunded != cost-tariffs.Price(operator.MCI, 6) || s.Refunded <= 0 {
		t.Fatalf("refunded %d, want %d − price of 6 parts %d", s.Refunded, cost, tariffs.Price(operator.MCI, 6))
	}
	got := reportParts(t, e, token, a.ID)[cut].PartStates
	want := strings.Repeat("delivered,", 6) + strings.TrimSuffix(strings.Repeat("rejected,", 6), ",")
	if strings.Join(got, ",") != want {
		t.Fatalf("report part states %v", got)
	}
}
