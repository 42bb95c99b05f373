package chapar_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	chapar "github.com/chapar/chapar/sdk/go"
)

var persian = regexp.MustCompile(`[\x{0600}-\x{06FF}]`)

// live is a client of the running Chapar named by CHAPAR_URL, CHAPAR_KEY and SIM_URL
// (scripts/sdk-test.sh), or a skip.
func live(t *testing.T) (*chapar.Client, string, context.Context) {
	t.Helper()
	if os.Getenv("CHAPAR_URL") == "" || os.Getenv("CHAPAR_KEY") == "" || os.Getenv("SIM_URL") == "" {
		t.Skip("CHAPAR_URL, CHAPAR_KEY and SIM_URL not set (scripts/sdk-test.sh)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return chapar.New(os.Getenv("CHAPAR_URL"), os.Getenv("CHAPAR_KEY")), os.Getenv("CHAPAR_LINE"), ctx
}

func sim(t *testing.T, path string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(os.Getenv("SIM_URL")+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("simulator %s: %v", path, err)
	}
	res.Body.Close()
	return res.StatusCode
}

func digits(n int) string {
	s := ""
	for range n {
		s += strconv.Itoa(rand.Intn(10))
	}
	return s
}

// mobile is a fresh number the simulator is told to deliver to.
func mobile(t *testing.T) string {
	local := "0912" + digits(7)
	sim(t, "/control/outcome", map[string]string{"to": "98" + local[1:], "stat": "DELIVRD"})
	return local
}

// waitFor polls fn until it reports done.
func waitFor(ctx context.Context, t *testing.T, what string, fn func() (bool, error)) {
	t.Helper()
	for {
		done, err := fn()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func TestLiveSendStatusCredit(t *testing.T) {
	c, line, ctx := live(t)
	before, err := c.Credit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	to, localID := mobile(t), "go-"+digits(12)
	sent, err := c.Send(ctx, chapar.SendRequest{Sender: line, Numbers: []string{to}, Text: "سلام از کتابخانهٔ گو", LocalID: localID})
	if err != nil || sent.ID == 0 || sent.Sender != line {
		t.Fatalf("send: %+v, %v", sent, err)
	}
	waitFor(ctx, t, "delivered", func() (bool, error) {
		st, err := c.Status(ctx, sent.ID, "")
		return st.Delivered == 1, err
	})
	st, err := c.StatusByLocalID(ctx, localID, to)
	if err != nil || st.ID != sent.ID || st.LocalID != localID || st.Recipient == nil || st.Recipient.Status != 2 {
		t.Fatalf("status by local_id: %+v, %v", st, err)
	}
	after, err := c.Credit(ctx)
	if err != nil || after > before-sent.Price {
		t.Fatalf("credit %d → %d, price %d (%v)", before, after, sent.Price, err)
	}
}

func TestLiveSameIdempotencyKeyIsOneSend(t *testing.T) {
	c, line, ctx := live(t)
	r := chapar.SendRequest{Sender: line, Numbers: []string{mobile(t)}, Text: "یک بار", IdempotencyKey: "go-idem-" + digits(16)}
	first, err := c.Send(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := c.Send(ctx, r); err != nil || again.ID != first.ID {
		t.Fatalf("again: %+v, %v; first %d", again, err, first.ID)
	}
}

func TestLivePatternSend(t *testing.T) {
	c, _, ctx := live(t)
	code := os.Getenv("CHAPAR_PATTERN")
	if code == "" {
		code = "login-otp"
	}
	to, otp := mobile(t), strconv.Itoa(10_000_000+rand.Intn(89_999_999))
	sent, err := c.SendPattern(ctx, chapar.PatternRequest{Code: code, Recipient: to, Values: map[string]string{"code": otp}, LocalID: "go-otp-" + otp})
	if err != nil || sent.Type != "pattern_otp" {
		t.Fatalf("pattern send: %+v, %v", sent, err)
	}
	waitFor(ctx, t, "pattern delivered", func() (bool, error) {
		st, err := c.StatusByLocalID(ctx, "go-otp-"+otp, to)
		return err == nil && st.ID == sent.ID && st.Recipient != nil && st.Recipient.Status == 2, err
	})
}

func TestLiveInboxSince(t *testing.T) {
	c, line, ctx := live(t)
	var cursor int64
	for {
		page, err := c.InboxSince(ctx, cursor, 500)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		cursor = page[len(page)-1].ID
	}
	text, from := fmt.Sprintf("پیام دریافتی گو %s", digits(6)), "98912"+digits(7)
	if s := sim(t, "/mo", map[string]string{"operator": "mci", "from": from, "to": line, "text": text}); s != http.StatusAccepted {
		t.Fatalf("simulator /mo: %d", s)
	}
	var got *chapar.InboxMessage
	waitFor(ctx, t, "inbound message", func() (bool, error) {
		page, err := c.InboxSince(ctx, cursor, 500)
		for i := range page {
			if page[i].Text == text {
				got = &page[i]
			}
		}
		return got != nil, err
	})
	if got.Sender != from || got.Line != line || got.ID <= cursor {
		t.Fatalf("message: %+v (cursor %d)", got, cursor)
	}
}

func TestLivePersianErrors(t *testing.T) {
	c, line, ctx := live(t)
	_, err := c.Send(ctx, chapar.SendRequest{Sender: line, Numbers: []string{"12345"}, Text: "سلام"})
	e, ok := chapar.AsError(err)
	if !ok || e.Status != 422 || e.Code == "" || !persian.MatchString(e.Message) || len(e.Fields["numbers"]) == 0 {
		t.Fatalf("want a 422 on numbers with a Persian message, got %#v", err)
	}
	_, err = chapar.New(os.Getenv("CHAPAR_URL"), "chp_live_000000000000_bad").Credit(ctx)
	if e, ok := chapar.AsError(err); !ok || e.Status != 401 || !persian.MatchString(e.Message) {
		t.Fatalf("want a 401 with a Persian message, got %v", err)
	}
}
