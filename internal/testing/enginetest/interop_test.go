package enginetest_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/send"
)

// The carrier answers transient errors: ESME_RSYSERR twice for one number (sent
// on the third try and delivered), ESME_RMSGQFUL for ever for another (rejected
// after the bind's tries, with its last status, and refunded), and a permanent
// error for a third (rejected at once, never resent).
func TestTransientErrorsRetried(t *testing.T) {
	const flaky, full, bad = "989351230001", "989351230002", "989351230003"
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {
		c.SubmitFaults = []smscsim.SubmitFault{
			{Dest: flaky, Status: 0x08, Times: 2},
			{Dest: full, Status: 0x14},
			{Dest: bad, Status: 0x45},
		}
	}})
	token, acct := e.Account("transient", "09121110020", "30002020", "service", 20_000_000)
	var a send.Accepted
	numbers := append(numbersFrom("0935", 20), "09351230001", "09351230002", "09351230003")
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "retry test", "numbers": numbers}, token).Decode(t, &a)
	assertAccounted(t, e, acct, a.ID, 23)
	want := map[string]string{flaky: "delivered", full: "rejected smsc:0x14", bad: "rejected smsc:0x45"}
	for mobile, w := range want {
		var status int
		var errText string
		if err := e.DB.Pool.QueryRow(context.Background(), `SELECT status, error FROM recipients WHERE send_id = $1 AND mobile = $2`,
			a.ID, mobile).Scan(&status, &errText); err != nil {
			t.Fatal(err)
		}
		got := map[int]string{2: "delivered", send.RcptRejected: "rejected " + errText}[status]
		if got != w {
			t.Errorf("%s: status %d %q, want %s", mobile, status, errText, w)
		}
	}
	s := sendStats(t, e, a.ID)
	if s.Delivered != 21 || s.Rejected != 2 {
		t.Fatalf("stats %+v", s)
	}
	// Two failed tries of the flaky number, the first try and every retry of
	// the full queue, one try of the permanent error: nothing more.
	if got, want := e.Sim.Stats().Total.Rejected, int64(2+1+gateway.DefaultRetryMax+1); got != want {
		t.Fatalf("carrier answered %d errors, want %d", got, want)
	}
}
