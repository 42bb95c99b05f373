package enginetest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/webhook"
)

// hookSink counts what a webhook receiver got: delivery receipts by message id,
// send status changes, and the size of every POST.
type hookSink struct {
	mu       sync.Mutex
	secret   string
	receipts map[int64]int
	statuses []string
	posts    int
	maxBatch int
	badSig   int
}

func (s *hookSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !webhook.Verify(s.secret, r.Header.Get(webhook.HeaderTimestamp), r.Header.Get(webhook.HeaderSignature), raw, time.Now(), time.Minute) {
		s.badSig++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var b webhook.Body
	if err := json.Unmarshal(raw, &b); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	s.posts++
	s.maxBatch = max(s.maxBatch, len(b.Events))
	for _, e := range b.Events {
		var d struct {
			MessageID int64  `json:"message_id"`
			Status    string `json:"status"`
		}
		_ = json.Unmarshal(e.Data, &d)
		switch e.Type {
		case webhook.EventDelivery:
			s.receipts[d.MessageID]++
		case webhook.EventSend:
			s.statuses = append(s.statuses, d.Status)
		}
	}
}

func (s *hookSink) counts() (distinct, total, posts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.receipts {
		total += n
	}
	return len(s.receipts), total, s.posts
}

// TestWebhookReceiptsOfABulkSend: every delivery receipt of a large send reaches
// the receiver once (counted by message id), in signed POSTs of at most the batch
// size, with the send's status changes. WEBHOOK_ENGINE_N sets the recipients
// (default 100,000, the most a quick send takes).
func TestWebhookReceiptsOfABulkSend(t *testing.T) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("WEBHOOK_ENGINE_N")); err == nil && v > 0 {
		n = v
	}
	e := enginetest.Start(t, enginetest.Options{Config: func(c *config.Config) {
		c.WebhookAllowPrivate, c.WebhookBatch, c.WebhookConcurrency = true, 100, 16
	}})
	token, _ := e.Account("hooks", "09121110090", "30009090", "service", 100_000_000_000)
	sink := &hookSink{receipts: map[int64]int{}}
	srv := httptest.NewServer(sink)
	t.Cleanup(srv.Close)
	// WEBHOOK_ENGINE_OFF=1 runs the same send without an endpoint: the receipt
	// path's time without event capture, for comparison (docs/history/benchmarks-2026-11.md).
	off := os.Getenv("WEBHOOK_ENGINE_OFF") != ""
	if !off {
		var ep webhook.Created
		e.Must(201, "POST", "/v1/api/developers/webhooks", map[string]any{"url": srv.URL,
			"events": []string{webhook.EventDelivery, webhook.EventSend}}, token).Decode(t, &ep)
		sink.mu.Lock()
		sink.secret = ep.Secret
		sink.mu.Unlock()
	}

	numbers := make([]string, n)
	prefixes := []string{"0912", "0935", "0921"}
	for i := range numbers {
		numbers[i] = fmt.Sprintf("%s%07d", prefixes[i%3], i)
	}
	start := time.Now()
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", map[string]any{"type": "quick", "numbers": numbers, "text": "وب‌هوک",
		"sender": "30009090"}, token).Decode(t, &a)
	e.Wait("every receipt applied", 10*time.Minute, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Delivered+s.Undelivered == n
	})
	t.Logf("BENCH %d recipients: every receipt applied %s after the POST (webhook capture on: %v)",
		n, time.Since(start).Round(time.Millisecond), !off)
	if off {
		return
	}
	e.Wait("every receipt posted", 10*time.Minute, func() bool {
		distinct, _, _ := sink.counts()
		return distinct >= n
	})
	elapsed := time.Since(start)
	time.Sleep(time.Second) // a duplicate would arrive now
	distinct, total, posts := sink.counts()
	s := sendStats(t, e, a.ID)
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if distinct != n || total != n || s.Delivered+s.Undelivered != n || sink.badSig != 0 {
		t.Fatalf("receipts %d distinct, %d in all, send %+v, bad signatures %d", distinct, total, s, sink.badSig)
	}
	if sink.maxBatch > 100 || posts < n/100 || posts > n/10 {
		t.Fatalf("%d posts, largest %d events", posts, sink.maxBatch)
	}
	var ids []int64
	if err := e.DB.Pool.QueryRow(t.Context(), `SELECT array_agg(id) FROM recipients WHERE send_id = $1`, a.ID).Scan(&ids); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if sink.receipts[id] != 1 {
			t.Fatalf("recipient %d: %d receipts", id, sink.receipts[id])
		}
	}
	if !slices.Contains(sink.statuses, "sending") {
		t.Fatalf("send status events %v", sink.statuses)
	}
	t.Logf("%d recipients: every receipt posted after %s in %d POSTs (largest %d); send statuses %v",
		n, elapsed.Round(time.Millisecond), posts, sink.maxBatch, sink.statuses)
}

// TestWebhookInboundMessage: a message received on the account's line reaches an
// endpoint subscribed to inbound.message, signed, once; an endpoint of the same
// account that did not subscribe gets nothing.
func TestWebhookInboundMessage(t *testing.T) {
	e := enginetest.Start(t, enginetest.Options{Config: func(c *config.Config) { c.WebhookAllowPrivate = true }})
	token, _ := e.Account("hookmo", "09121110091", "30009191", "service", 1_000_000)
	var mu sync.Mutex
	var got []webhook.Event
	var secret string
	var other atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/other" {
			other.Add(1)
			return
		}
		if !webhook.Verify(secret, r.Header.Get(webhook.HeaderTimestamp), r.Header.Get(webhook.HeaderSignature), raw, time.Now(), time.Minute) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var b webhook.Body
		_ = json.Unmarshal(raw, &b)
		got = append(got, b.Events...)
	}))
	t.Cleanup(srv.Close)
	var ep webhook.Created
	e.Must(201, "POST", "/v1/api/developers/webhooks", map[string]any{"url": srv.URL + "/in",
		"events": []string{webhook.EventInbound}}, token).Decode(t, &ep)
	mu.Lock()
	secret = ep.Secret
	mu.Unlock()
	e.Must(201, "POST", "/v1/api/developers/webhooks", map[string]any{"url": srv.URL + "/other",
		"events": []string{webhook.EventSend}}, token)
	if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: "989121239191", To: "30009191", Text: "سلام وب‌هوک"}); err != nil {
		t.Fatal(err)
	}
	e.Wait("the inbound event posted", 20*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) > 0 })
	time.Sleep(500 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	var d struct{ Sender, Line, Text string }
	if len(got) != 1 || got[0].Type != webhook.EventInbound || json.Unmarshal(got[0].Data, &d) != nil ||
		d.Sender != "989121239191" || d.Line != "30009191" || d.Text != "سلام وب‌هوک" || other.Load() != 0 {
		t.Fatalf("events %+v (%+v), other endpoint %d", got, d, other.Load())
	}
}
