package enginetest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
)

type stats struct {
	Status      string `json:"status"`
	Recipients  int    `json:"recipients"`
	Submitted   int    `json:"submitted"`
	Delivered   int    `json:"delivered"`
	Undelivered int    `json:"undelivered"`
	Rejected    int    `json:"rejected"`
	Blacklisted int    `json:"blacklisted"`
	Cost        int64  `json:"cost"`
	Refunded    int64  `json:"refunded"`
}

func sendStats(t *testing.T, e *enginetest.Engine, id int64) stats {
	t.Helper()
	var s stats
	err := e.DB.Pool.QueryRow(context.Background(), `SELECT status, recipients, submitted, delivered, undelivered, rejected,
		blacklisted, cost, refunded FROM sends WHERE id = $1`, id).Scan(&s.Status, &s.Recipients, &s.Submitted, &s.Delivered,
		&s.Undelivered, &s.Rejected, &s.Blacklisted, &s.Cost, &s.Refunded)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func credit(t *testing.T, e *enginetest.Engine, token string) int64 {
	t.Helper()
	var c struct{ Credit int64 }
	e.Must(200, "GET", "/v1/api/payment/credit/mine", nil, token).Decode(t, &c)
	return c.Credit
}

// ledgerBalanced checks the wallet equals its ledger and returns the money a send
// took in the end (holds, settlements, refunds).
func ledgerBalanced(t *testing.T, e *enginetest.Engine, accountID, sendID int64) int64 {
	t.Helper()
	bal, sum, err := e.Deps.Wallet.Check(context.Background(), accountID)
	if err != nil || bal != sum {
		t.Fatalf("wallet %d != ledger sum %d (%v)", bal, sum, err)
	}
	var taken int64
	if err := e.DB.Pool.QueryRow(context.Background(), `SELECT -coalesce(sum(amount), 0) FROM ledger WHERE send_id = $1`, sendID).Scan(&taken); err != nil {
		t.Fatal(err)
	}
	return taken
}

// charged is what the account must pay: every submitted recipient (reached or
// not), none of the blacklisted or never-submitted ones; of a recipient some of
// whose parts were never sent (refused by the carrier, or never submitted: 'r'
// and 'n' in its part states), the price of the parts that were sent, at the
// account's tariff (the per-send fee included).
func charged(t *testing.T, e *enginetest.Engine, sendID int64) int64 {
	t.Helper()
	ctx := context.Background()
	var acct int64
	if err := e.DB.Pool.QueryRow(ctx, `SELECT account_id FROM sends WHERE id = $1`, sendID).Scan(&acct); err != nil {
		t.Fatal(err)
	}
	tariffs, err := operator.Load(ctx, e.DB.Pool, acct)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := e.DB.Pool.Query(ctx, `SELECT operator, parts, cost,
		length(part_states) - length(replace(replace(part_states, 'r', ''), 'n', ''))
		FROM recipients WHERE send_id = $1 AND status IN (0, 1, 2, 3)`, sendID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var c int64
	for rows.Next() {
		var op string
		var parts, unsent int
		var cost int64
		if err := rows.Scan(&op, &parts, &cost, &unsent); err != nil {
			t.Fatal(err)
		}
		if unsent > 0 {
			cost = tariffs.Price(op, parts-unsent)
		}
		c += cost
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestQuickSendEndToEnd(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) {
		c.ForcedOutcomes = map[string]smscsim.Stat{"989351234567": smscsim.StatUndeliverable}
	}})
	token, acct := e.Account("shop", "09121110001", "30004444", "advertising", 1_000_000)
	before := credit(t, e, token)
	body := map[string]any{"type": "quick", "text": "سلام، تخفیف ویژه امروز", "sender": "30004444",
		"numbers": []string{"09121234567", "۰۹۳۵۱۲۳۴۵۶۷", "+989201234567", "09121234567"}}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if q.Recipients != 3 || q.Duplicates != 1 || q.Parts != 1 || !q.Cancel11 || len(q.PerOperator) != 3 {
		t.Fatalf("quote %+v", q)
	}
	// 1 part: mci 190+40, irancell and rightel 209+40.
	if q.Price != 230+249+249 {
		t.Fatalf("price %d", q.Price)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token, "Idempotency-Key", "k-1").Decode(t, &a)
	if a.Price != q.Price || a.Status != "queued" {
		t.Fatalf("accepted %+v", a)
	}
	// A retried request with the same key returns the same send and holds nothing more.
	var again send.Accepted
	e.Must(200, "POST", "/v1/api/send", body, token, "Idempotency-Key", "k-1").Decode(t, &again)
	if again.ID != a.ID {
		t.Fatalf("idempotency: %d != %d", again.ID, a.ID)
	}
	if c := credit(t, e, token); c != before-q.Price {
		t.Fatalf("credit after accept %d, want %d", c, before-q.Price)
	}
	e.Wait("all recipients final", 20*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == 3
	})
	s := sendStats(t, e, a.ID)
	if s.Delivered != 2 || s.Undelivered != 1 || s.Submitted != 3 || s.Refunded != 0 {
		t.Fatalf("stats %+v", s)
	}
	msg, ok := e.Sim.Latest("989121234567")
	if !ok || msg.Text != "سلام، تخفیف ویژه امروز\nلغو۱۱" {
		t.Fatalf("handset got %+v", msg)
	}
	if st := e.Sim.Stats(); st.Duplicates != 0 {
		t.Fatalf("duplicate submits: %+v", st)
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != q.Price || taken != charged(t, e, a.ID) {
		t.Fatalf("ledger took %d, quoted %d", taken, q.Price)
	}
	if c := credit(t, e, token); c != before-q.Price {
		t.Fatalf("final credit %d, want %d", c, before-q.Price)
	}
}

func TestStopRefundsUnsent(t *testing.T) {
	// A slow carrier (300 submits/s) keeps most recipients queued when the stop lands.
	e := enginetest.Start(t, enginetest.Options{Sim: func(c *smscsim.Config) { c.Rate = 300; c.Burst = 30 }})
	token, acct := e.Account("stopper", "09121110002", "30005555", "service", 10_000_000)
	numbers := make([]string, 0, 3000)
	for i := 0; i < 3000; i++ {
		numbers = append(numbers, "0912"+pad7(i))
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"text": "hello", "numbers": numbers}, token).Decode(t, &a)
	e.Wait("the carrier accepting", 30*time.Second, func() bool { return e.Sim.Stats().Total.Accepted > 1 })
	var st send.Stopped
	e.Must(200, "POST", "/v1/api/send/cancel", map[string]any{"id": a.ID}, token).Decode(t, &st)
	if st.Refunded <= 0 {
		t.Fatalf("stop refunded %d", st.Refunded)
	}
	e.Wait("send closed", 90*time.Second, func() bool {
		var fin bool
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT finished_at IS NOT NULL FROM sends WHERE id = $1`, a.ID).Scan(&fin)
		return fin
	})
	e.Wait("receipts applied", 20*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Delivered+s.Undelivered == s.Submitted
	})
	s := sendStats(t, e, a.ID)
	if s.Status != "stopped" || s.Submitted+s.Rejected != 3000 || s.Rejected == 0 {
		t.Fatalf("stats %+v", s)
	}
	// The report counts the recipients the stop left unsent apart (its «متوقف‌شده» segment).
	var rep report.Stats
	e.Must(200, "GET", "/v1/api/report/bulk_stats?id="+itoa(a.ID), nil, token).Decode(t, &rep)
	var unsent int
	_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM recipients WHERE send_id = $1 AND error = 'stopped'`, a.ID).Scan(&unsent)
	if rep.Stopped == 0 || rep.Stopped != unsent || rep.Stopped > rep.Rejected {
		t.Fatalf("report stopped %d, unsent recipients %d, rejected %d", rep.Stopped, unsent, rep.Rejected)
	}
	// Exactly the submitted ones are paid for; every unsent one was refunded to the rial.
	if taken, want := ledgerBalanced(t, e, acct, a.ID), charged(t, e, a.ID); taken != want {
		t.Fatalf("ledger took %d, submitted cost %d", taken, want)
	}
	// The carrier accepted exactly the submitted ones (plus the account's login code,
	// which the worker may still be sending when the stopped send has closed).
	e.Wait("the login code at the carrier", 30*time.Second, func() bool { return int(e.Sim.Stats().Total.Accepted) >= s.Submitted+1 })
	if st := e.Sim.Stats(); st.Duplicates != 0 || int(st.Total.Accepted) != s.Submitted+1 {
		t.Fatalf("simulator %+v vs submitted %d", st, s.Submitted)
	}
	e.Must(409, "POST", "/v1/api/send/cancel", map[string]any{"id": a.ID}, token)
}

func TestLoginOTPThroughTheCarrier(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	// handsetCode waits for a message to the number that starts with prefix.
	handsetCode := func(prefix string) string {
		var text string
		e.Wait("the code at the handset", 15*time.Second, func() bool {
			m, ok := e.Sim.Latest("989123334455")
			text = m.Text
			return ok && strings.HasPrefix(text, prefix)
		})
		return apitest.CodeIn(text)
	}
	var reg auth.Registration
	e.Must(201, "POST", "/v1/api/user/register", map[string]any{"name": "otp", "username": "otpuser", "mobile": "09123334455",
		"password": "Secret@1234", "password_confirmation": "Secret@1234", "accept_rules": true}, "").Decode(t, &reg)
	e.Must(200, "POST", "/v1/api/user/register/verify", map[string]string{"verify_token": reg.VerifyToken,
		"code": handsetCode("کد تایید شماره همراه")}, "")
	var lr auth.LoginResult
	e.Must(200, "POST", "/v1/api/acl/auth/login", map[string]string{"username": "otpuser", "password": "Secret@1234"}, "").Decode(t, &lr)
	var tok struct{ Token string }
	e.Must(200, "POST", "/v1/api/acl/auth/confirm_otp", map[string]string{"login_token": lr.LoginToken,
		"code": handsetCode("کد تایید چاپار")}, "").Decode(t, &tok)
	e.Must(200, "GET", "/v1/api/acl/auth/check_token", nil, tok.Token)
}

func pad7(i int) string { return fmt.Sprintf("%07d", i) }
