package enginetest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/send"
)

// A suspended account's tracked links stop redirecting (404) and start again once it
// is reactivated (issue 38 item 1: suspension stops the link shortener too).
func TestSuspendedAccountLinksStop(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{})
	ctx := context.Background()
	token, acct := e.Account("paused", "09121110081", "30007300", "service", 5_000_000)
	// Texts with links are not held here: the link is approved at once (link
	// review is pkg/links' TestLinkTargetsAreModerated).
	if _, err := e.DB.Pool.Exec(ctx, `WITH m AS (UPDATE settings SET value = '{"links": false}' WHERE key = 'moderation')
		UPDATE accounts SET link_tracking = true WHERE id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	var link links.Link
	e.Must(201, "POST", "/v1/api/panel/link_tracker", map[string]any{"title": "حراج", "url": "https://shop.example/sale?ref=a",
		"utm_source": "chapar_sms"}, token).Decode(t, &link)
	numbers := []string{"09123100001"}
	body := map[string]any{"type": "quick", "text": "حراج " + link.Placeholder, "sender": "30007300", "numbers": numbers}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	e.Wait("the send done", 60*time.Second, func() bool { return sendStats(t, e, a.ID).Status == "done" })
	code := receivedCodes(t, e, numbers, q.Parts)[0]
	status := func() int {
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Get(e.URL + "/l/" + code)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, step := range []struct {
		status string
		want   int
	}{{"active", http.StatusFound}, {"suspended", http.StatusNotFound}, {"active", http.StatusFound}} {
		if _, err := e.DB.Pool.Exec(ctx, `UPDATE accounts SET status = $2 WHERE id = $1`, acct, step.status); err != nil {
			t.Fatal(err)
		}
		if got := status(); got != step.want {
			t.Fatalf("link of an account %s: %d, want %d", step.status, got, step.want)
		}
	}
}
