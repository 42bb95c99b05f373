package enginetest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/shortlink"
)

var shortRE = regexp.MustCompile(`/l/([0-9A-Za-z]{` + strconv.Itoa(shortlink.CodeLen) + `})`)

// TestTrackedLinks sends a tracked link to 50 recipients: each receives its own
// code, the price quoted is the price charged, 200 concurrent clicks count exactly
// 200 total and 50 unique, the redirect appends the UTM parameters, an unknown code
// is a 404, and a link a scheduled send or a draft still uses cannot be removed.
func TestTrackedLinks(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	ctx := context.Background()
	token, acct := e.Account("linker", "09121110071", "30007100", "service", 50_000_000)
	form := map[string]any{"title": "حراج", "url": "https://shop.example/sale?ref=a", "utm_source": "chapar_sms"}
	// The plan gate: tracking needs an upgraded panel.
	if r := e.Must(403, "POST", "/v1/api/panel/link_tracker", form, token); r.Meta.Message != links.MsgPlanRequired {
		t.Fatalf("gate: %s", r.Raw)
	}
	// Texts with links are not held here (the moderation of link targets is
	// pkg/links' TestLinkTargetsAreModerated): the link is approved at once.
	if _, err := e.DB.Pool.Exec(ctx, `WITH m AS (UPDATE settings SET value = '{"links": false}' WHERE key = 'moderation')
		UPDATE accounts SET link_tracking = true WHERE id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	var link links.Link
	e.Must(201, "POST", "/v1/api/panel/link_tracker", form, token).Decode(t, &link)

	numbers := make([]string, 50)
	for i := range numbers {
		numbers[i] = fmt.Sprintf("0912%07d", 3000000+i)
	}
	// Three links' worth of text keeps the count honest: 3 × the short link's length.
	text := "حراج بزرگ " + link.Placeholder + " فقط امروز"
	body := map[string]any{"type": "quick", "text": text, "sender": "30007100", "numbers": numbers}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	if a.Price != q.Price || q.Recipients != 50 {
		t.Fatalf("quote %+v, accepted %+v", q, a)
	}
	e.Wait("the send done", 60*time.Second, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == 50
	})
	if s := sendStats(t, e, a.ID); s.Cost != q.Price || s.Refunded != 0 {
		t.Fatalf("charged %d (refunded %d), quoted %d", s.Cost, s.Refunded, q.Price)
	}
	codes := receivedCodes(t, e, numbers, q.Parts)

	// 200 concurrent clicks, four per recipient.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(code string) {
			defer wg.Done()
			res, err := client.Get(e.URL + "/l/" + code)
			if err != nil {
				errs <- err
				return
			}
			res.Body.Close()
			if res.StatusCode != http.StatusFound {
				errs <- fmt.Errorf("status %d", res.StatusCode)
				return
			}
			if err := checkTarget(res.Header.Get("Location"), a.ID); err != nil {
				errs <- err
			}
		}(codes[i%50])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := e.Deps.Links.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var st links.Stats
	e.Must(200, "GET", fmt.Sprintf("/v1/api/panel/link_tracker/%d/stats", link.ID), nil, token).Decode(t, &st)
	if st.Link.Clicks != 200 || st.Link.Unique != 50 || len(st.PerSend) != 1 || st.PerSend[0].SendID != a.ID ||
		st.PerSend[0].Clicks != 200 || st.PerSend[0].Unique != 50 {
		t.Fatalf("stats %+v", st)
	}
	var opClicks, opUnique, dayClicks int64
	for _, o := range st.PerOperator {
		opClicks, opUnique = opClicks+o.Clicks, opUnique+o.Unique
	}
	for _, d := range st.PerDay {
		dayClicks += d.Clicks
	}
	if opClicks != 200 || opUnique != 50 || dayClicks != 200 || len(st.PerDay) != links.StatsDays {
		t.Fatalf("per operator %d/%d, per day %d over %d days", opClicks, opUnique, dayClicks, len(st.PerDay))
	}

	// Unknown and forged codes are 404s, and record nothing.
	forged := codes[0][:shortlink.CodeLen-1] + map[bool]string{true: "A", false: "B"}[codes[0][shortlink.CodeLen-1] != 'A']
	for _, code := range []string{"0000000000", forged, "short", codes[0] + "x"} {
		res, err := client.Get(e.URL + "/l/" + code)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("code %q: %d", code, res.StatusCode)
		}
	}

	// Another account sees nothing of the link.
	other, _ := e.Account("other", "09121110072", "30007200", "service", 0)
	e.Must(404, "GET", fmt.Sprintf("/v1/api/panel/link_tracker/%d/stats", link.ID), nil, other)
	e.Must(404, "POST", "/v1/api/panel/link_tracker/delete", map[string]any{"id": link.ID}, other)
	// Nor may it use the link in its texts.
	e.Must(422, "POST", "/v1/api/send/calculate-price", map[string]any{"type": "quick", "text": text, "sender": "30007200",
		"numbers": numbers[:1]}, other)

	linkRemoval(t, e, token, link, numbers[:2])
}

// linkRemoval checks the spec §5 rule: a link that a scheduled send or a draft
// still uses is not removed, and the refusal names it.
func linkRemoval(t *testing.T, e *enginetest.Engine, token string, link links.Link, numbers []string) {
	at := time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	var sched send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "quick", "text": "بعدا " + link.Placeholder,
		"sender": "30007100", "numbers": numbers, "send_at": at}, token).Decode(t, &sched)
	del := map[string]any{"id": link.ID}
	r := e.Must(409, "POST", "/v1/api/panel/link_tracker/delete", del, token)
	if !strings.Contains(r.Meta.Message, "شماره "+persian.Digits(strconv.FormatInt(sched.ID, 10))) {
		t.Fatalf("refusal does not name send %d: %s", sched.ID, r.Meta.Message)
	}
	e.Must(200, "POST", "/v1/api/send/cancel", map[string]any{"id": sched.ID}, token)
	e.Must(200, "POST", "/v1/api/user/draft", map[string]any{"type": "quick", "title": "پیش‌نویس حراج",
		"text": "متن " + link.Placeholder}, token)
	if r := e.Must(409, "POST", "/v1/api/panel/link_tracker/delete", del, token); !strings.Contains(r.Meta.Message, "پیش‌نویس حراج") {
		t.Fatalf("refusal does not name the draft: %s", r.Meta.Message)
	}
	if _, err := e.DB.Pool.Exec(context.Background(), `DELETE FROM drafts`); err != nil {
		t.Fatal(err)
	}
	e.Must(200, "POST", "/v1/api/panel/link_tracker/delete", del, token)
	var left []links.Link
	e.Must(200, "GET", "/v1/api/panel/link_tracker", nil, token).Decode(t, &left)
	if len(left) != 0 {
		t.Fatalf("the removed link is still listed: %+v", left)
	}
}

// receivedCodes reads each number's short code from the text the carrier
// simulator received: one per recipient, all different, the placeholder gone, and
// the text in the parts quoted.
func receivedCodes(t *testing.T, e *enginetest.Engine, numbers []string, parts int) []string {
	t.Helper()
	seen := map[string]bool{}
	codes := make([]string, len(numbers))
	for i, n := range numbers {
		msg, ok := e.Sim.Latest("98" + n[1:])
		if !ok {
			t.Fatalf("%s received nothing", n)
		}
		m := shortRE.FindStringSubmatch(msg.Text)
		if m == nil || strings.Contains(msg.Text, shortlink.Marker) || msg.Parts != parts {
			t.Fatalf("%s received %q in %d parts (quoted %d)", n, msg.Text, msg.Parts, parts)
		}
		if seen[m[1]] {
			t.Fatalf("code %s received twice", m[1])
		}
		seen[m[1]] = true
		codes[i] = m[1]
	}
	return codes
}

// checkTarget checks a redirect's target: the link's address and its own query,
// with the UTM parameters appended (the link's source, the defaults for the rest).
func checkTarget(loc string, sendID int64) error {
	u, err := url.Parse(loc)
	if err != nil {
		return err
	}
	q := u.Query()
	if u.Host != "shop.example" || u.Path != "/sale" || q.Get("ref") != "a" || q.Get("utm_source") != "chapar_sms" ||
		q.Get("utm_medium") != "sms" || q.Get("utm_campaign") != "send-"+strconv.FormatInt(sendID, 10) {
		return fmt.Errorf("target %s", loc)
	}
	return nil
}

// TestRowTextsCannotAddLinks (issue 38 item 8): links render only from a send's
// own text. A keyword cell or a peer-to-peer row carrying {link:N} of another
// account reaches the handset as plain text, never as a short link, while the
// keyword template's own link is rendered.
func TestRowTextsCannotAddLinks(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	ctx := context.Background()
	tokA, accA := e.Account("rowlinka", "09121110081", "30008101", "service", 5_000_000)
	tokB, accB := e.Account("rowlinkb", "09121110082", "30008102", "service", 5_000_000)
	if _, err := e.DB.Pool.Exec(ctx, `WITH m AS (UPDATE settings SET value = '{"links": false}' WHERE key = 'moderation')
		UPDATE accounts SET link_tracking = true WHERE id IN ($1, $2)`, accA, accB); err != nil {
		t.Fatal(err)
	}
	var la, lb links.Link
	e.Must(201, "POST", "/v1/api/panel/link_tracker", map[string]any{"title": "a", "url": "https://a.example/"}, tokA).Decode(t, &la)
	e.Must(201, "POST", "/v1/api/panel/link_tracker", map[string]any{"title": "b", "url": "https://b.example/"}, tokB).Decode(t, &lb)

	kw := upload(t, e, tokA, "kw.csv", "send", []byte("mobile,name\n09121234681,"+lb.Placeholder+"\n"))
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "keyword", "file_id": kw.ID, "sender": "30008101",
		"text": "سلام {ex_B} " + la.Placeholder}, tokA).Decode(t, &a)
	p2p := upload(t, e, tokA, "p2p.xlsx", "peer_to_peer", xlsxOf(t, [][]any{{"متن", "شماره"}, {"سلام " + lb.Placeholder, "09121234682"}}))
	var b send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "peer_to_peer", "file_id": p2p.ID, "sender": "30008101"}, tokA).Decode(t, &b)
	e.Wait("both sends done", 60*time.Second, func() bool {
		return sendStats(t, e, a.ID).Status == "done" && sendStats(t, e, b.ID).Status == "done"
	})
	kwText, _ := e.Sim.Latest("989121234681")
	if got := shortRE.FindAllString(kwText.Text, -1); len(got) != 1 || !strings.Contains(kwText.Text, lb.Placeholder) {
		t.Fatalf("keyword row received %q: want the template's one link and the cell's placeholder as text", kwText.Text)
	}
	p2pText, _ := e.Sim.Latest("989121234682")
	if shortRE.MatchString(p2pText.Text) || p2pText.Text != "سلام "+lb.Placeholder {
		t.Fatalf("peer-to-peer row received %q: a row may not add a link", p2pText.Text)
	}
}
