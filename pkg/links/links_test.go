package links_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/shortlink"
)

// tenant is a customer account with a service line, credit and link tracking.
type tenant struct {
	tok  string
	acc  int64
	line string
}

func newTenant(t *testing.T, e *apitest.Env, stok, username, mobile string) tenant {
	t.Helper()
	ctx := context.Background()
	e.Register(username, "Secret@12345", mobile)
	u, err := e.Accounts.ByUsername(ctx, username)
	if err != nil {
		t.Fatal(err)
	}
	line := "3000" + mobile[7:]
	if _, err := e.Deps.Lines.Add(ctx, u.AccountID, line, "service", true); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/accounts/%d/credit", u.AccountID),
		map[string]any{"amount": 1_000_000, "reason": "آزمون"}, stok)
	if _, err := e.DB.Pool.Exec(ctx, `UPDATE accounts SET link_tracking = true WHERE id = $1`, u.AccountID); err != nil {
		t.Fatal(err)
	}
	return tenant{tok: e.Login(username, "Secret@12345"), acc: u.AccountID, line: line}
}

func setRules(t *testing.T, e *apitest.Env, rules string) {
	t.Helper()
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE settings SET value = $1 WHERE key = 'moderation'`, rules); err != nil {
		t.Fatal(err)
	}
}

func makeLink(t *testing.T, e *apitest.Env, a tenant, url string) links.Link {
	t.Helper()
	var l links.Link
	e.Must(201, "POST", "/v1/api/panel/link_tracker", map[string]any{"title": "پیوند", "url": url}, a.tok).Decode(t, &l)
	return l
}

// reviewItem is the pending review item of a subject in a queue (nil: none).
func reviewItem(t *testing.T, e *apitest.Env, stok, kind string, subject int64) *review.Item {
	t.Helper()
	var items []review.Item
	e.Must(200, "GET", "/v1/api/admin/reviews/items?kind="+kind, nil, stok).Decode(t, &items)
	for _, it := range items {
		if it.SubjectID == subject {
			return &it
		}
	}
	return nil
}

func quick(a tenant, text string) map[string]any {
	return map[string]any{"type": "quick", "text": text, "sender": a.line, "numbers": []string{"09121234567"}}
}

// TestLinkTargetsAreModerated (issue 38 items 7 and 17): a tracked link whose
// target the moderation rules would hold waits for staff review, cannot go into a
// text until approved (a clear Persian refusal), and a send that carries it is held
// exactly as if its target were written in the text — by the link rule, and by a
// sensitive word in the address when links are not held; a clean target is
// approved at once and its send goes out; a rejected link keeps its reason.
func TestLinkTargetsAreModerated(t *testing.T) {
	e := apitest.Start(t, nil)
	stok := e.Staff("linkreviewer", "09120009941")
	a := newTenant(t, e, stok, "linkshop", "09121230041")

	short := makeLink(t, e, a, "https://bit.ly/3xPhish")
	it := reviewItem(t, e, stok, links.ReviewKind, short.ID)
	if short.Status != links.StatusPending || it == nil || !slices.Contains(it.Reasons, moderation.ReasonLink) {
		t.Fatalf("a link target the rules hold was not queued: %+v %+v", short, it)
	}
	r := e.Must(422, "POST", "/v1/api/send", quick(a, "جایزه: "+short.Placeholder), a.tok)
	if !strings.Contains(string(r.Raw), links.MsgLinkPending) {
		t.Fatalf("a pending link went into a send: %s", r.Raw)
	}
	e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/reviews/%d/approve", it.ID), map[string]any{}, stok)

	var held, plain send.Accepted
	e.Must(201, "POST", "/v1/api/send", quick(a, "جایزه: "+short.Placeholder), a.tok).Decode(t, &held)
	e.Must(201, "POST", "/v1/api/send", quick(a, "جایزه امروز"), a.tok).Decode(t, &plain)
	if it := reviewItem(t, e, stok, send.ReviewKind, held.ID); held.Status != send.StatusHeld || it == nil ||
		!slices.Contains(it.Reasons, moderation.ReasonLink) || plain.Status == send.StatusHeld {
		t.Fatalf("tracked link send %+v (review %+v), plain send %+v", held, it, plain)
	}

	// Links not held: a clean target is approved at once and goes out; a target
	// with a sensitive word waits, and its send is held for the word.
	setRules(t, e, `{"links": false}`)
	clean := makeLink(t, e, a, "https://shop.example/sale")
	var out send.Accepted
	e.Must(201, "POST", "/v1/api/send", quick(a, "حراج "+clean.Placeholder), a.tok).Decode(t, &out)
	if clean.Status != links.StatusApproved || out.Status == send.StatusHeld {
		t.Fatalf("clean link %+v, its send %+v", clean, out)
	}
	worded := makeLink(t, e, a, "https://games.example/کازینو")
	if worded.Status != links.StatusPending {
		t.Fatalf("a target with a sensitive word was approved: %+v", worded)
	}
	e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/reviews/%d/approve", reviewItem(t, e, stok, links.ReviewKind, worded.ID).ID),
		map[string]any{}, stok)
	e.Must(201, "POST", "/v1/api/send", quick(a, "بازی "+worded.Placeholder), a.tok).Decode(t, &held)
	if it := reviewItem(t, e, stok, send.ReviewKind, held.ID); held.Status != send.StatusHeld || it == nil ||
		!slices.Contains(it.Reasons, moderation.ReasonWord+"کازینو") {
		t.Fatalf("a send whose link target has a sensitive word: %+v (review %+v)", held, it)
	}

	// A rejected link keeps the reviewer's reason and cannot be sent.
	setRules(t, e, `{"links": true}`)
	bad := makeLink(t, e, a, "https://x.tk/login")
	e.Must(200, "POST", fmt.Sprintf("/v1/api/admin/reviews/%d/reject", reviewItem(t, e, stok, links.ReviewKind, bad.ID).ID),
		map[string]any{"reason": "نشانی فیشینگ"}, stok)
	var list []links.Link
	e.Must(200, "GET", "/v1/api/panel/link_tracker", nil, a.tok).Decode(t, &list)
	if i := slices.IndexFunc(list, func(l links.Link) bool { return l.ID == bad.ID }); i < 0 ||
		list[i].Status != links.StatusRejected || list[i].ReviewNote != "نشانی فیشینگ" {
		t.Fatalf("rejected link listed as %+v", list)
	}
	if r := e.Must(422, "POST", "/v1/api/send", quick(a, "ورود "+bad.Placeholder), a.tok); !strings.Contains(string(r.Raw), links.MsgLinkRejected) {
		t.Fatalf("a rejected link: %s", r.Raw)
	}
}

// recipientCode hand-writes a sent send of the account with text, and one
// recipient with its own text (nil: none), and returns the recipient's code of
// slot 0 (legacy: a first-generation code) and the send's id.
func recipientCode(t *testing.T, e *apitest.Env, acc int64, text string, own *string, legacy bool) (string, int64) {
	t.Helper()
	ctx := context.Background()
	var sendID, rcpt int64
	err := e.DB.Pool.QueryRow(ctx, `INSERT INTO sends (account_id, type, sender, text, status, requested, recipients, parts,
		total_parts, quote, cost, expanded_at) VALUES ($1, 'quick', '3000', $2, 'sending', 1, 1, 1, 1, 0, 0, now()) RETURNING id`,
		acc, text).Scan(&sendID)
	if err == nil {
		err = e.DB.Pool.QueryRow(ctx, `INSERT INTO recipients (send_id, batch, mobile, operator, parts, cost, status, text)
			VALUES ($1, 0, '989121234567', 'mci', 1, 0, 0, $2) RETURNING id`, sendID, own).Scan(&rcpt)
	}
	if err != nil {
		t.Fatal(err)
	}
	codec := shortlink.New(e.Config.ShortLinkBase, e.Config.TokenSecret)
	code := codec.Code(rcpt, 0)
	if legacy {
		code = shortlink.LegacyCode(codec, rcpt, 0)
	}
	return code, sendID
}

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// open requests a short link from a client address and returns the status and
// the redirect's target.
func open(t *testing.T, e *apitest.Env, code, ip string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.URL+"/l/"+code, nil)
	if ip != "" {
		req.Header.Set("X-Forwarded-For", ip)
	}
	res, err := noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

func trustLocal(c *config.Config) { c.TrustedProxies = []string{"127.0.0.1", "::1"} }

// TestShortLinkRedirectRules (issue 38 items 8, 17 and 18): the redirect takes a
// code's link from the send's own text, never from a recipient's rendered text, so
// a value carrying another account's {link:N} reaches nothing (even once that
// link is cached by its owner's clicks); only an approved link redirects; a
// first-generation two-character code is honoured only for sends made before codes
// were lengthened; repeated clicks of one recipient count once as unique.
func TestShortLinkRedirectRules(t *testing.T) {
	e := apitest.Start(t, trustLocal)
	stok := e.Staff("redirstaff", "09120009951")
	setRules(t, e, `{"links": false}`)
	a := newTenant(t, e, stok, "redira", "09121230051")
	b := newTenant(t, e, stok, "redirb", "09121230052")
	la, lb := makeLink(t, e, a, "https://a.example/x"), makeLink(t, e, b, "https://b.example/y")

	codeB, _ := recipientCode(t, e, b.acc, "b "+lb.Placeholder, nil, false)
	if st, to := open(t, e, codeB, "198.51.100.1"); st != http.StatusFound || !strings.HasPrefix(to, "https://b.example/y") {
		t.Fatalf("b's own link: %d %s", st, to)
	}
	injected := "a " + lb.Placeholder
	codeA, _ := recipientCode(t, e, a.acc, "a "+la.Placeholder, &injected, false)
	if st, to := open(t, e, codeA, "198.51.100.1"); st != http.StatusFound || !strings.HasPrefix(to, "https://a.example/x") {
		t.Fatalf("a value's {link:N} of another account was followed: %d %s", st, to)
	}
	codeNone, _ := recipientCode(t, e, a.acc, "a", &injected, false)
	if st, to := open(t, e, codeNone, "198.51.100.1"); st != http.StatusNotFound {
		t.Fatalf("a link only a recipient's text holds was followed: %d %s", st, to)
	}

	setRules(t, e, `{"links": true}`)
	pending := makeLink(t, e, a, "https://pending.example/")
	codeP, _ := recipientCode(t, e, a.acc, "p "+pending.Placeholder, nil, false)
	if st, _ := open(t, e, codeP, "198.51.100.1"); st != http.StatusNotFound || pending.Status != links.StatusPending {
		t.Fatalf("an unreviewed link redirected: %d (%s)", st, pending.Status)
	}

	// First-generation codes: refused for a send made after the change, honoured
	// for one made before it (the migration's mark).
	legacy, sendID := recipientCode(t, e, a.acc, "l "+la.Placeholder, nil, true)
	if st, _ := open(t, e, legacy, "198.51.100.2"); st != http.StatusNotFound {
		t.Fatalf("a two-character code of a new send: %d", st)
	}
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE settings SET value = to_jsonb($1::bigint)
		WHERE key = 'shortlink_legacy_send'`, sendID); err != nil {
		t.Fatal(err)
	}
	if st, _ := open(t, e, legacy, "198.51.100.2"); st != http.StatusFound {
		t.Fatalf("a two-character code of an old send: %d", st)
	}

	for i := 0; i < 3; i++ {
		open(t, e, codeA, fmt.Sprintf("198.51.100.%d", 10+i))
	}
	if err := e.Deps.Links.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var st links.Stats
	e.Must(200, "GET", fmt.Sprintf("/v1/api/panel/link_tracker/%d/stats", la.ID), nil, a.tok).Decode(t, &st)
	if st.Link.Unique != 2 || st.Link.Clicks != 5 { // codeA ×4 (one recipient) and the old send's one
		t.Fatalf("clicks %d, unique %d; want 5 and 2", st.Link.Clicks, st.Link.Unique)
	}
}

// TestShortLinkRateLimits (issue 38 item 18): one client address gets at most
// RATE_LINK_IP_PER_MIN redirects a minute and, past RATE_LINK_MISSES_IP_PER_HOUR
// unknown codes, none at all (a Persian 429 page with Retry-After); other
// addresses are not affected.
func TestShortLinkRateLimits(t *testing.T) {
	e := apitest.Start(t, func(c *config.Config) {
		trustLocal(c)
		c.LinkPerIPPerMin, c.LinkMissesPerIPPerHour = 4, 2
	})
	stok := e.Staff("ratestaff", "09120009961")
	setRules(t, e, `{"links": false}`)
	a := newTenant(t, e, stok, "ratea", "09121230061")
	code, _ := recipientCode(t, e, a.acc, "a "+makeLink(t, e, a, "https://a.example/").Placeholder, nil, false)
	for i := 0; i < 4; i++ {
		if st, _ := open(t, e, code, "203.0.113.1"); st != http.StatusFound {
			t.Fatalf("click %d: %d", i, st)
		}
	}
	if st, _ := open(t, e, code, "203.0.113.1"); st != http.StatusTooManyRequests {
		t.Fatalf("click past the per-minute limit: %d", st)
	}
	forged := code[:shortlink.CodeLen-1] + map[bool]string{true: "A", false: "B"}[code[shortlink.CodeLen-1] != 'A']
	for i := 0; i < 2; i++ {
		if st, _ := open(t, e, forged, "203.0.113.2"); st != http.StatusNotFound {
			t.Fatalf("forged code %d: %d", i, st)
		}
	}
	if st, _ := open(t, e, code, "203.0.113.2"); st != http.StatusTooManyRequests {
		t.Fatalf("a valid code after the misses: %d", st)
	}
	if st, _ := open(t, e, code, "203.0.113.3"); st != http.StatusFound {
		t.Fatalf("another address: %d", st)
	}
}
