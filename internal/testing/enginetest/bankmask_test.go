package enginetest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/validate"
)

// liveTap collects the live events published for one account.
type liveTap struct {
	mu     sync.Mutex
	events []string
}

// tapLive subscribes to the account's live channel under prefix (the engine's
// Options.LivePrefix) until the test ends.
func tapLive(t *testing.T, e *enginetest.Engine, prefix string, acct int64) *liveTap {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sub := e.RDB().Subscribe(ctx, prefix+itoa(acct))
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	tap := &liveTap{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m := range sub.Channel() {
			tap.mu.Lock()
			tap.events = append(tap.events, m.Payload)
			tap.mu.Unlock()
		}
	}()
	t.Cleanup(func() { cancel(); _ = sub.Close(); <-done })
	return tap
}

func (l *liveTap) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...)
}

var digitRunRE = regexp.MustCompile(`[0-9]+`)

// wholeIn returns a number of set (keyed by its last ten digits) that text shows
// whole in any form (98…, 09…, 9…, Persian digits), or "".
func wholeIn(text string, set map[string]bool) string {
	for _, run := range digitRunRE.FindAllString(validate.ToLatinDigits(text), -1) {
		if len(run) >= 10 && len(run) <= 12 && set[run[len(run)-10:]] {
			return run
		}
	}
	return ""
}

// textOf is a response as text: every cell of an Excel file, the body otherwise.
func textOf(t *testing.T, raw []byte) string {
	t.Helper()
	if !bytes.HasPrefix(raw, []byte("PK")) {
		return string(raw)
	}
	f, err := excelize.OpenReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			b.WriteString(strings.Join(r, "|") + "\n")
		}
	}
	return b.String()
}

// rawGet reads a route as it is (JSON or a file), failing on any status but 200.
func rawGet(t *testing.T, e *enginetest.Engine, path, token string) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s (%v)", path, res.StatusCode, raw, err)
	}
	return raw
}

// texts reads one text column of a query.
func texts(t *testing.T, e *enginetest.Engine, sql string, args ...any) []string {
	t.Helper()
	rows, err := e.DB.Pool.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkNeverWhole reads everything the customer can read about its bank sends and
// the replies to them (the reports and their exports, the status API, the inbox,
// its export and API read, the lists and their export, the webhook deliveries and
// the events queued for them, the audit log and its export, the live events) and
// fails if any shows a number the account reached through the bank whole, but
// those it typed itself (typed: on its own lists).
func checkNeverWhole(t *testing.T, e *enginetest.Engine, token string, acct int64, sends []int64, typed []string, tap *liveTap) {
	t.Helper()
	set := map[string]bool{}
	for _, m := range texts(t, e, `SELECT mobile FROM bank_reached WHERE account_id = $1`, acct) {
		set[m[2:]] = true
	}
	for _, m := range typed {
		delete(set, m[2:])
	}
	if len(set) < 5000 {
		t.Fatalf("%d numbers reached", len(set))
	}
	paths := []string{"/inbox/since?limit=100", "/report/messages-inbox?limit=100", "/report/messages-inbox/export",
		"/phonebooks/blacklist?kind=cancel11", "/phonebooks/blacklist?kind=send", "/phonebooks/blacklist/export?kind=cancel11",
		"/developers/webhooks/deliveries?limit=100", "/user/audit?limit=100", "/user/audit/export", "/report/new_list"}
	for _, id := range sends {
		paths = append(paths, "/report/recipients?id="+itoa(id)+"&limit=100", "/report/download_recipients?id="+itoa(id),
			"/send/status?id="+itoa(id), "/report/by_bulk?ids="+itoa(id), "/report/analytics?id="+itoa(id))
	}
	for _, p := range paths {
		if m := wholeIn(textOf(t, rawGet(t, e, "/v1/api"+p, token)), set); m != "" {
			t.Fatalf("GET %s shows the bank number %s whole", p, m)
		}
	}
	stored := append(texts(t, e, `SELECT ev.payload::text FROM webhook_events ev
		JOIN webhook_endpoints w ON w.id = ev.endpoint_id WHERE w.account_id = $1`, acct),
		texts(t, e, `SELECT details::text || target FROM audit_log WHERE account_id = $1`, acct)...)
	events := tap.all()
	for _, s := range append(stored, events...) {
		if m := wholeIn(s, set); m != "" {
			t.Fatalf("%s shows the bank number %s whole", s, m)
		}
	}
	if !strings.Contains(strings.Join(stored, "\n"), `"mobile": "09`) {
		t.Fatalf("no delivery event was captured (%d stored)", len(stored))
	}
	if !strings.Contains(strings.Join(events, "\n"), `inbox.received`) {
		t.Fatalf("no inbox.received live event (%d events)", len(events))
	}
}

// livePrefix is a test's own live channel prefix.
func livePrefix() string { return fmt.Sprintf("test-events:%d:", time.Now().UnixNano()) }
