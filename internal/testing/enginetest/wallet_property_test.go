package enginetest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
)

// walletRun is the state of the property test's random run.
type walletRun struct {
	t           *testing.T
	e           *enginetest.Engine
	rng         *rand.Rand
	token, stok string
	acct, limit int64
	sends       []int64
	tracking    int
	moves       map[string]int
}

// A random mix of sends, stops, online payments (paid, failed, money taken and
// returned), offline payments (approved, rejected) and staff adjustments, 200 steps
// from a fixed seed (WALLET_PROPERTY_SEED overrides it): after every step the
// balance equals the sum of the ledger and no ledger row took it below the
// account's credit limit; once the sends finish, the same holds.
func TestWalletPropertyRandomMix(t *testing.T) {
	seed := uint64(20261125)
	if s, err := strconv.ParseUint(os.Getenv("WALLET_PROPERTY_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("seed %d", seed)
	e := enginetest.Start(t, enginetest.Options{})
	w := &walletRun{t: t, e: e, rng: rand.New(rand.NewPCG(seed, seed)), limit: 300_000, moves: map[string]int{}}
	w.token, w.acct = e.Account("property", "09121115001", "30007777", "service", 1_000_000)
	w.stok = e.Staff("propstaff", "09121115901")
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE wallets SET credit_limit = $2 WHERE account_id = $1`, w.acct, w.limit); err != nil {
		t.Fatal(err)
	}
	steps := []func(){w.send, w.send, w.send, w.stop, w.pay, w.payFailed, w.offline, w.adjust}
	for i := range 200 {
		steps[w.rng.IntN(len(steps))]()
		w.check(i)
	}
	e.Wait("every send closed", 120*time.Second, func() bool {
		var open int
		_ = e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM sends WHERE account_id = $1 AND finished_at IS NULL`, w.acct).Scan(&open)
		return open == 0
	})
	w.check(200)
	t.Logf("moves %v", w.moves)
	for _, k := range []string{"send", "send-refused", "stop", "pay", "offline-approved", "adjust", "adjust-refused"} {
		if w.moves[k] == 0 {
			t.Errorf("the run never made a %s move: %v", k, w.moves)
		}
	}
}

// check asserts the invariants: balance = sum(ledger), every balance_after is the
// running sum, and none is below -credit_limit.
func (w *walletRun) check(step int) {
	w.t.Helper()
	var balance, sum, lowest int64
	var broken int
	err := w.e.DB.Pool.QueryRow(context.Background(), `SELECT (SELECT balance FROM wallets WHERE account_id = $1),
		coalesce(sum(amount), 0), coalesce(min(balance_after), 0),
		count(*) FILTER (WHERE balance_after <> running) FROM (
			SELECT amount, balance_after, sum(amount) OVER (ORDER BY id) AS running FROM ledger WHERE account_id = $1) l`,
		w.acct).Scan(&balance, &sum, &lowest, &broken)
	if err != nil {
		w.t.Fatal(err)
	}
	if balance != sum || lowest < -w.limit || broken != 0 || balance < -w.limit {
		w.t.Fatalf("step %d: balance %d, ledger sum %d, lowest %d (limit %d), %d rows off the running sum; moves %v",
			step, balance, sum, lowest, w.limit, broken, w.moves)
	}
}

func (w *walletRun) send() {
	n := 1 + w.rng.IntN(40)
	numbers := make([]string, n)
	for i := range numbers {
		numbers[i] = "0912" + strconv.Itoa(1000000+w.rng.IntN(8999999))
	}
	r := w.e.Do("POST", "/v1/api/send", map[string]any{"text": "property " + strconv.Itoa(n), "numbers": numbers}, w.token)
	switch r.Status {
	case 201:
		var a send.Accepted
		r.Decode(w.t, &a)
		w.sends = append(w.sends, a.ID)
		w.moves["send"]++
	case 402:
		w.moves["send-refused"]++
	default:
		w.t.Fatalf("send: %d %s", r.Status, r.Raw)
	}
}

func (w *walletRun) stop() {
	if len(w.sends) == 0 {
		return
	}
	id := w.sends[w.rng.IntN(len(w.sends))]
	switch r := w.e.Do("POST", "/v1/api/send/cancel", map[string]any{"id": id}, w.token); r.Status {
	case 200:
		w.moves["stop"]++
	case 409:
		w.moves["stop-late"]++
	default:
		w.t.Fatalf("stop: %d %s", r.Status, r.Raw)
	}
}

// bank pays (or fails) a fresh online payment on the sandbox bank's page and
// delivers its callback.
func (w *walletRun) bank(action string) payment.Started {
	amount := 1_000_000 + int64(w.rng.IntN(20))*100_000
	var st payment.Started
	w.e.Must(200, "GET", "/v1/api/payment/generate-url?amount="+strconv.FormatInt(amount, 10), nil, w.token).Decode(w.t, &st)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(w.e.URL+st.URL, url.Values{"action": {action}})
	if err != nil {
		w.t.Fatal(err)
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, payment.CallbackPath) {
		w.t.Fatalf("bank %s: %d %q", action, res.StatusCode, loc)
	}
	if res, err = c.Get(w.e.URL + loc); err != nil {
		w.t.Fatal(err)
	}
	res.Body.Close()
	return st
}

func (w *walletRun) pay() {
	w.bank("pay")
	w.moves["pay"]++
}

// payFailed fails a payment, half the time with the money taken, which the settle
// task returns at the bank (the wallet is not touched either way).
func (w *walletRun) payFailed() {
	action := "fail"
	if w.rng.IntN(2) == 0 {
		action = "taken"
	}
	w.bank(action)
	if _, _, err := w.e.Deps.Payments.Settle(context.Background()); err != nil {
		w.t.Fatal(err)
	}
	w.moves["pay-"+action]++
}

var receiptPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

// offline reports a card-to-card transfer and has staff approve or reject it.
func (w *walletRun) offline() {
	w.tracking++
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range map[string]string{"amount": strconv.Itoa(1_000_000 + w.rng.IntN(5_000_000)), "card_number": "6037991234567893",
		"tracking_number": strconv.Itoa(100000 + w.tracking), "transferred_at": time.Now().Add(-time.Minute).Format(time.RFC3339)} {
		_ = mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("receipt", "r.png")
	_, _ = fw.Write(receiptPNG)
	_ = mw.Close()
	var op offline.Payment
	w.e.Must(201, "POST", "/v1/api/payment/offline/card-to-card-create", b.String(), w.token, "Content-Type", mw.FormDataContentType()).Decode(w.t, &op)
	var items []review.Item
	w.e.Must(200, "GET", "/v1/api/admin/reviews/items?kind="+offline.Kind+"&limit=100", nil, w.stok).Decode(w.t, &items)
	for _, it := range items {
		if it.SubjectID != op.ID {
			continue
		}
		if w.rng.IntN(3) == 0 {
			w.e.Must(200, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/reject", map[string]any{"reason": "رسید نامعتبر"}, w.stok)
			w.moves["offline-rejected"]++
			return
		}
		w.e.Must(200, "POST", "/v1/api/admin/reviews/"+itoa(it.ID)+"/approve", map[string]any{}, w.stok)
		w.moves["offline-approved"]++
		return
	}
	w.t.Fatalf("offline payment %d not in the queue", op.ID)
}

// adjust moves the credit by a staff adjustment: a random one either way, one that
// spends to the credit limit exactly, or one a rial past it (refused).
func (w *walletRun) adjust() {
	amount := int64(w.rng.IntN(4_000_000) - 2_000_000)
	kind := w.rng.IntN(3)
	if kind > 0 {
		var balance int64
		if err := w.e.DB.Pool.QueryRow(context.Background(), `SELECT balance FROM wallets WHERE account_id = $1`, w.acct).Scan(&balance); err != nil {
			w.t.Fatal(err)
		}
		amount = -(balance + w.limit + int64(kind-1))
	}
	if amount == 0 {
		amount = 1
	}
	r := w.e.Do("POST", "/v1/api/admin/accounts/"+itoa(w.acct)+"/credit", map[string]any{"amount": amount, "reason": "اصلاح آزمایشی"}, w.stok)
	switch {
	case r.Status == 200 && kind != 2:
		w.moves["adjust"]++
	case r.Status == 402 && kind != 1:
		w.moves["adjust-refused"]++
	default:
		w.t.Fatalf("adjust %d (kind %d): %d %s", amount, kind, r.Status, r.Raw)
	}
}
