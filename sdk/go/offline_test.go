package chapar_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	chapar "github.com/chapar/chapar/sdk/go"
)

type hit struct {
	at  time.Time
	key string
}

// flaky answers the statuses in order (with their headers), recording each request.
func flaky(t *testing.T, answers ...[2]string) (*chapar.Client, func() []hit) {
	t.Helper()
	var mu sync.Mutex
	var seen []hit
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, hit{time.Now(), r.Header.Get("Idempotency-Key")})
		a := answers[len(seen)-1]
		status, _ := strconv.Atoi(a[0])
		if a[1] != "" {
			w.Header().Set("Retry-After", a[1])
		}
		w.WriteHeader(status)
		data := "null"
		if status < 300 {
			data = `{"id": 7}`
		}
		fmt.Fprintf(w, `{"data": %s, "meta": {"status": %d, "message": "خطای سرور", "message_code": "%d", "errors": {}}}`, data, status, status)
	}))
	t.Cleanup(srv.Close)
	c := chapar.New(srv.URL, "chp_live_x")
	c.Backoff = 50 * time.Millisecond
	return c, func() []hit { mu.Lock(); defer mu.Unlock(); return append([]hit(nil), seen...) }
}

func TestRetriesWithOneKeyAndRetryAfter(t *testing.T) {
	c, seen := flaky(t, [2]string{"503", ""}, [2]string{"429", "1"}, [2]string{"201", ""})
	got, err := c.Send(context.Background(), chapar.SendRequest{Sender: "300012345", Numbers: []string{"09121234567"}, Text: "سلام"})
	if err != nil || got.ID != 7 {
		t.Fatalf("send: %+v, %v", got, err)
	}
	h := seen()
	if len(h) != 3 || h[0].key == "" || h[0].key != h[1].key || h[1].key != h[2].key {
		t.Fatalf("want 3 tries with one key, got %+v", h)
	}
	if d := h[2].at.Sub(h[1].at); d < 900*time.Millisecond {
		t.Fatalf("Retry-After: 1 not waited: %v", d)
	}
}

func TestGivesUpAndNoRetryOn422(t *testing.T) {
	c, seen := flaky(t, [2]string{"500", ""}, [2]string{"500", ""}, [2]string{"500", ""}, [2]string{"500", ""}, [2]string{"422", ""})
	_, err := c.Send(context.Background(), chapar.SendRequest{Sender: "x", Text: "x", IdempotencyKey: "k-1"})
	if e, ok := chapar.AsError(err); !ok || e.Status != 500 {
		t.Fatalf("want the last 500, got %v", err)
	}
	for _, h := range seen() {
		if h.key != "k-1" {
			t.Fatalf("key changed: %+v", seen())
		}
	}
	_, err = c.Send(context.Background(), chapar.SendRequest{Sender: "x", Numbers: []string{"1"}, Text: "x"})
	if e, ok := chapar.AsError(err); !ok || e.Status != 422 || e.Code != "422" || e.Message != "خطای سرور" {
		t.Fatalf("want the 422, got %v", err)
	}
	if n := len(seen()); n != 5 {
		t.Fatalf("422 retried: %d tries", n)
	}
}

func TestNetworkErrorIsRetriedThenWrapped(t *testing.T) {
	c := chapar.New("http://127.0.0.1:1", "chp_live_x")
	c.Backoff, c.MaxRetries = time.Millisecond, 1
	_, err := c.Credit(context.Background())
	if err == nil || !errors.Is(err, chapar.ErrNetwork) {
		t.Fatalf("want ErrNetwork, got %v", err)
	}
}

func TestWebhookVectorOfTheGoSigner(t *testing.T) {
	raw := os.Getenv("CHAPAR_WEBHOOK_VECTOR")
	if raw == "" {
		t.Skip("CHAPAR_WEBHOOK_VECTOR not set (scripts/sdk-test.sh sets it)")
	}
	var v struct{ Secret, Timestamp, Body, Signature string }
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatal(err)
	}
	ts, _ := strconv.ParseInt(v.Timestamp, 10, 64)
	body, now := []byte(v.Body), time.Now()
	if got := chapar.SignWebhook(v.Secret, ts, body); got != v.Signature {
		t.Fatalf("sign: %s, want %s", got, v.Signature)
	}
	checks := []struct {
		secret, sig string
		body        []byte
		at          time.Time
		want        bool
	}{
		{v.Secret, v.Signature, body, now, true},
		{v.Secret, "v1=00," + v.Signature, body, now, true},
		{v.Secret, v.Signature, append(append([]byte(nil), body...), ' '), now, false},
		{"whsec_other", v.Signature, body, now, false},
		{v.Secret, v.Signature, body, time.Unix(ts+301, 0), false},
	}
	for i, c := range checks {
		if got := chapar.VerifyWebhook(c.secret, v.Timestamp, c.sig, c.body, c.at, chapar.DefaultTolerance); got != c.want {
			t.Errorf("check %d: %v, want %v", i, got, c.want)
		}
	}
}
