package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/campaign"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/wallet"
)

// sender is a logged-in owner with two service lines (the first the default) and
// credit.
type sender struct {
	e       *apitest.Env
	token   string
	account int64
}

func newSender(t *testing.T, tweak func(*config.Config)) sender {
	t.Helper()
	e := apitest.Start(t, tweak)
	e.Register("reza", pw, "09121110001")
	s := sender{e: e, token: e.Login("reza", pw)}
	ctx := context.Background()
	u, err := e.Accounts.ByUsername(ctx, "reza")
	if err != nil {
		t.Fatal(err)
	}
	s.account = u.AccountID
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind, is_default)
		VALUES ($1, '30001', 'service', true), ($1, '30002', 'service', false)`, s.account); err != nil {
		t.Fatal(err)
	}
	if err := pgx.BeginFunc(ctx, e.DB.Pool, func(tx pgx.Tx) error {
		_, _, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: s.account, Kind: wallet.AdminCredit, Amount: 1_000_000})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return s
}

// Invalid send requests are answered 422 and do not use up the account's send rate
// limit: 600 of them used to leave every valid send (and every recurring campaign
// run) refused with 429 for a minute.
func TestInvalidSendsDoNotUseTheLimit(t *testing.T) {
	s := newSender(t, func(c *config.Config) { c.SendPerMin = 600 })
	bad := []map[string]any{
		{"type": "quick", "text": "", "numbers": []string{"09121234567"}},
		{"type": "quick", "text": "سلام", "numbers": []string{"123"}},
		{"type": "quick", "text": "سلام", "numbers": []string{"09121234567"}, "sender": "99999"},
		{"type": "file", "text": "سلام", "file_id": 424242},
	}
	for i := range 600 {
		if r := s.e.Do("POST", "/v1/api/send", bad[i%len(bad)], s.token); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("invalid send %d: %d %s", i, r.Status, r.Raw)
		}
	}
	var a send.Accepted
	s.e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "quick", "text": "سلام", "numbers": []string{"09121234567"}},
		s.token).Decode(t, &a)
	if a.ID == 0 || a.Status != send.StatusQueued {
		t.Fatalf("valid send after invalid ones: %+v", a)
	}
}

// calculate-price of a file is served from the cache while nothing its price
// depends on changed (the file's rows are deleted underneath to prove no second
// walk), a change of text, line or blacklist prices it again, invalid requests do
// not count, and the account's walks are limited per minute and at once (429,
// Retry-After, Persian).
func TestCalculatePriceCacheAndLimit(t *testing.T) {
	const perMin = 4
	s := newSender(t, func(c *config.Config) { c.QuotePerMin = perMin })
	ctx := context.Background()
	file := fileFixture(t, s.e, s.account, "send", "ready", []string{"mobile"},
		[][]string{{"09121234501"}, {"09121234502"}, {"09351234503"}})
	quote := func(body map[string]any) send.Quote {
		t.Helper()
		var q send.Quote
		s.e.Must(200, "POST", "/v1/api/send/calculate-price", body, s.token).Decode(t, &q)
		return q
	}
	body := func(text, line string) map[string]any {
		return map[string]any{"type": "file", "file_id": file, "text": text, "sender": line}
	}
	for range 10 { // invalid: no text
		s.e.Must(422, "POST", "/v1/api/send/calculate-price", body("", "30001"), s.token)
	}
	first := quote(body("سلام", "30001")) // walk 1
	if first.Recipients != 3 || first.Price == 0 {
		t.Fatalf("first quote %+v", first)
	}
	if _, err := s.e.DB.Pool.Exec(ctx, `DELETE FROM file_rows WHERE file_id = $1`, file); err != nil {
		t.Fatal(err)
	}
	if again := quote(body("سلام", "30001")); again.Recipients != 3 || again.Price != first.Price {
		t.Fatalf("the identical quote walked the file again: %+v", again)
	}
	// Each change prices again (the rows are gone now: no recipients).
	changed := map[string]map[string]any{"text": body("سلام دوباره", "30001"), "line": body("سلام", "30002")} // walks 2, 3
	for what, b := range changed {
		if q := quote(b); q.Recipients != 0 {
			t.Fatalf("a change of %s served the cached quote: %+v", what, q)
		}
	}
	// Two walks of the account already running: a third is refused at once, a cached
	// quote is still answered.
	limiter := ratelimit.New(s.e.Redis.Client, "rl:")
	var releases []func()
	for range send.DefaultQuoteConcurrent {
		rel, ok, err := limiter.Acquire(ctx, "quote:busy:"+strconv.FormatInt(s.account, 10), send.DefaultQuoteConcurrent, time.Minute)
		if err != nil || !ok {
			t.Fatalf("slot: %v %v", ok, err)
		}
		releases = append(releases, rel)
	}
	if r := s.e.Do("POST", "/v1/api/send/calculate-price", body("همزمان", "30001"), s.token); r.Status != http.StatusTooManyRequests ||
		r.Header.Get("Retry-After") != "1" {
		t.Fatalf("a third walk at once: %d %q", r.Status, r.Header.Get("Retry-After"))
	}
	quote(body("سلام", "30001"))
	for _, rel := range releases {
		rel()
	}
	if _, err := s.e.DB.Pool.Exec(ctx, `INSERT INTO blacklist (account_id, kind, mobile) VALUES ($1, 'send', '989121234501')`,
		s.account); err != nil {
		t.Fatal(err)
	}
	if q := quote(body("سلام", "30001")); q.Recipients != 0 { // walk 4
		t.Fatalf("a blacklist change served the cached quote: %+v", q)
	}
	r := s.e.Do("POST", "/v1/api/send/calculate-price", body("متن تازه", "30001"), s.token)
	retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != http.StatusTooManyRequests || retry < 1 || r.Meta.Message != apperr.MsgRateLimited {
		t.Fatalf("walk %d: %d Retry-After %q %+v", perMin+1, r.Status, r.Header.Get("Retry-After"), r.Meta)
	}
	// A cached quote is still answered.
	quote(body("سلام", "30001"))
}

// A recurring campaign whose schedule never runs, runs more than 13 months ahead
// or more often than once a minute is refused with a Persian 422.
func TestCampaignRefusesRunawaySchedules(t *testing.T) {
	s := newSender(t, nil)
	for expr, msg := range map[string]string{
		"0 0 30 2 *": campaign.MsgNoRun,
		"@every 1s":  campaign.MsgTooOften,
	} {
		r := s.e.Do("POST", "/v1/api/send/campaigns", map[string]any{"title": "هرگز", "type": "quick", "text": "سلام",
			"numbers": []string{"09121234567"}, "schedule": map[string]any{"kind": "cron", "cron": expr}}, s.token)
		if r.Status != http.StatusUnprocessableEntity || len(r.Meta.Errors["schedule.cron"]) != 1 || r.Meta.Errors["schedule.cron"][0] != msg {
			t.Fatalf("%q: %d %+v", expr, r.Status, r.Meta)
		}
	}
	var n int
	if err := s.e.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM campaigns`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d campaigns stored (%v)", n, err)
	}
}
