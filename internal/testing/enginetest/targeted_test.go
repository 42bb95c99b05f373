package enginetest_test

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/internal/testing/enginetest"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
)

var maskedRE = regexp.MustCompile(`^09[0-9]{2}\*{5}[0-9]{2}$`)

// bankNumbers returns n numbers of a province of the bank (98XXXXXXXXXX).
func bankNumbers(t *testing.T, e *enginetest.Engine, province, n int) []string {
	t.Helper()
	rows, err := e.DB.Pool.Query(context.Background(), `SELECT id::text FROM bank_numbers WHERE province = $1 ORDER BY id LIMIT $2`, province, n)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func local(m string) string { return "0" + m[2:] }

// A regional send (type city_province) to a province of the bank: no account's
// send blacklist or cancel-11 list narrows it (the account's own would make the
// send's counts, charge and report a lookup of the numbers listed), so every
// number reaches the carrier and is charged as quoted; the reports
// and the Excel export show only masked numbers and no number can be looked up;
// an audience under 5,000 is refused; a random draw picks distinct numbers.
func TestTargetedRegionalSend(t *testing.T) {
	prefix := livePrefix()
	e := enginetest.Start(t, enginetest.Options{LivePrefix: prefix})
	ctx := context.Background()
	if _, err := bank.Seed(ctx, e.DB.Pool, 3, 36_000); err != nil {
		t.Fatal(err)
	}
	token, acct := e.Account("regional", "09121110040", "30004040", "service", 200_000_000)
	// Regional sends come with the enterprise plan.
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE accounts SET plan = 'enterprise' WHERE id = $1`, acct); err != nil {
		t.Fatal(err)
	}
	tap := tapLive(t, e, prefix, acct)
	if _, err := e.DB.Pool.Exec(ctx, `INSERT INTO webhook_endpoints (account_id, url, events, secret)
		VALUES ($1, 'https://hooks.invalid/chapar', ARRAY['delivery.receipt', 'inbound.message', 'send.status'], 'x')`, acct); err != nil {
		t.Fatal(err)
	}
	other, _ := e.Account("neighbour", "09121110041", "30004041", "service", 1_000_000)
	picked := bankNumbers(t, e, 28, 4)
	mine, theirs := picked[:2], picked[2:]
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{local(mine[0])}, "kind": "send"}, token)
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{local(mine[1])}, "kind": "cancel11"}, token)
	e.Must(201, "POST", "/v1/api/phonebooks/blacklist", map[string]any{"numbers": []string{local(theirs[0]), local(theirs[1])}, "kind": "send"}, other)

	small := map[string]any{"type": "city_province", "target": map[string]any{"provinces": []int{11}}, "text": "تخفیف", "sender": "30004040"}
	if r := e.Do("POST", "/v1/api/send/calculate-price", small, token); r.Status != 422 || !bytes.Contains(r.Raw, []byte(bank.MsgMinimum)) {
		t.Fatalf("Ilam's audience is under 5,000: %d %s", r.Status, r.Raw)
	}
	var c bank.Counts
	target := map[string]any{"provinces": []int{28}}
	e.Must(200, "POST", "/v1/api/send/banks/counts", map[string]any{"type": "city_province", "target": target}, token).Decode(t, &c)
	if c.Total < bank.MinRecipients || !c.Enough {
		t.Fatalf("counts %+v", c)
	}
	body := map[string]any{"type": "city_province", "target": target, "text": "تخفیف ویژه", "sender": "30004040"}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", body, token).Decode(t, &q)
	if int64(q.Recipients) != c.Total || q.Blacklisted != 0 || int64(q.Requested) != c.Total {
		t.Fatalf("quote %+v for %d numbers", q, c.Total)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/send", body, token).Decode(t, &a)
	e.Wait("the regional send done", 3*time.Minute, func() bool {
		s := sendStats(t, e, a.ID)
		return s.Status == "done" && s.Delivered+s.Undelivered == q.Recipients
	})
	if s := sendStats(t, e, a.ID); s.Blacklisted != 0 || s.Recipients != q.Recipients {
		t.Fatalf("the send's counts depend on the account's lists: %+v", s)
	}
	for _, m := range picked {
		if msg, ok := e.Sim.Latest(m); !ok || msg.Text != "تخفیف ویژه" {
			t.Fatalf("%s is on a list only and must get the message: %+v", m, msg)
		}
	}
	if taken := ledgerBalanced(t, e, acct, a.ID); taken != q.Price || taken != charged(t, e, a.ID) {
		t.Fatalf("ledger took %d, quoted %d", taken, q.Price)
	}
	checkMasked(t, e, token, acct, a.ID, theirs[0])
	reply := checkReplies(t, e, token, acct, theirs[0])
	checkOptOut(t, e, token, acct, theirs[1])

	draw := map[string]any{"type": "city_province", "target": map[string]any{"provinces": []int{28}, "count": 5000, "seed": 12345},
		"text": "قرعه", "sender": "30004040"}
	var b send.Accepted
	e.Must(201, "POST", "/v1/api/send", draw, token).Decode(t, &b)
	e.Wait("the draw expanded", time.Minute, func() bool { return sendStats(t, e, b.ID).Status != "queued" })
	var rows, distinct int
	if err := e.DB.Pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT mobile) FROM recipients WHERE send_id = $1`, b.ID).
		Scan(&rows, &distinct); err != nil || rows != 5000 || distinct != 5000 {
		t.Fatalf("a draw of 5,000: %d rows, %d distinct (%v)", rows, distinct, err)
	}
	var seed int64
	if err := e.DB.Pool.QueryRow(ctx, `SELECT (source->'target'->>'seed')::bigint FROM sends WHERE id = $1`, b.ID).Scan(&seed); err != nil ||
		seed == 12345 || seed == 0 {
		t.Fatalf("a draw's seed is the platform's, never the request's: %d (%v)", seed, err)
	}
	checkNeverWhole(t, e, token, acct, []int64{a.ID, b.ID, reply}, mine, tap)
}

// checkMasked reads a bank send's recipients as the customer does: the list, one
// number's lookup and the Excel export.
func checkMasked(t *testing.T, e *enginetest.Engine, token string, acct, sendID int64, sent string) {
	t.Helper()
	var rows []report.Recipient
	e.Must(200, "GET", "/v1/api/report/recipients?id="+itoa(sendID)+"&limit=100", nil, token).Decode(t, &rows)
	if len(rows) != 100 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if !maskedRE.MatchString(r.Mobile) {
			t.Fatalf("a report shows %q", r.Mobile)
		}
	}
	if r := e.Do("GET", "/v1/api/send/status?id="+itoa(sendID)+"&mobile="+local(sent), nil, token); r.Status == 200 &&
		bytes.Contains(r.Raw, []byte(sent[2:])) {
		t.Fatalf("a number of a bank send was looked up: %s", r.Raw)
	}
	if _, err := e.Deps.Reports.RecipientOf(context.Background(), acct, sendID, sent); err == nil {
		t.Fatal("a number of a bank send was found by lookup")
	}
	var buf bytes.Buffer
	if err := e.Deps.Reports.WriteRecipientsXLSX(context.Background(), acct, sendID, &buf); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := f.GetRows(f.GetSheetName(0))
	if err != nil || len(cells) < 100 {
		t.Fatalf("export: %d rows (%v)", len(cells), err)
	}
	col := slices.Index(cells[0], "شماره موبایل")
	if col < 0 {
		t.Fatalf("export header %q has no number column", cells[0])
	}
	for _, row := range cells[1:] {
		if !maskedRE.MatchString(row[col]) {
			t.Fatalf("the export shows %q", row[col])
		}
	}
}

// checkReplies: a message from a number the bank send reached is stored masked and
// shown masked in the inbox list and the API read, and a search by the number does
// not find it; the reply by the message's id reaches the number and its report is
// masked; a message from a number never reached through the bank shows whole, and
// another account cannot reply to the message.
func checkReplies(t *testing.T, e *enginetest.Engine, token string, acct int64, reached string) int64 {
	t.Helper()
	const stranger = "989121000077"
	for _, from := range []string{reached, stranger} {
		if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: from, To: "30004040", Text: "جواب"}); err != nil {
			t.Fatal(err)
		}
	}
	e.Wait("both messages in the inbox", 10*time.Second, func() bool {
		return len(inboxRows(t, e, acct, reached)) == 1 && len(inboxRows(t, e, acct, stranger)) == 1
	})
	var items []inbox.Item
	e.Must(200, "GET", "/v1/api/report/messages-inbox?limit=50", nil, token).Decode(t, &items)
	var masked *inbox.Item
	for i, it := range items {
		switch {
		case it.Masked:
			masked = &items[i]
		case it.Sender != stranger:
			t.Fatalf("the inbox shows %q whole", it.Sender)
		}
	}
	if masked == nil || !maskedRE.MatchString(masked.Sender) || masked.Sender != bank.Mask(reached) {
		t.Fatalf("the bank number's message in the inbox: %+v", masked)
	}
	var found []inbox.Item
	e.Must(200, "GET", "/v1/api/report/messages-inbox?sender="+local(reached), nil, token).Decode(t, &found)
	if len(found) != 0 {
		t.Fatalf("a search by the bank number found %+v", found)
	}
	read, err := inbox.New(e.DB.Pool).Since(context.Background(), acct, inbox.SinceQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range read {
		if m.Sender == reached {
			t.Fatalf("the API read shows the bank number whole: %+v", m)
		}
	}
	other, _ := e.Account("replier", "09121110042", "30004042", "service", 1_000_000)
	if r := e.Do("POST", "/v1/api/report/messages-inbox/reply", map[string]any{"id": masked.ID, "text": "x"}, other); r.Status != 404 {
		t.Fatalf("another account replied to the message: %d %s", r.Status, r.Raw)
	}
	var a send.Accepted
	e.Must(201, "POST", "/v1/api/report/messages-inbox/reply", map[string]any{"id": masked.ID, "text": "پاسخ شما"}, token).Decode(t, &a)
	e.Wait("the reply at the handset", 30*time.Second, func() bool { m, ok := e.Sim.Latest(reached); return ok && m.Text == "پاسخ شما" })
	var rows []report.Recipient
	e.Must(200, "GET", "/v1/api/report/recipients?id="+itoa(a.ID), nil, token).Decode(t, &rows)
	if len(rows) != 1 || rows[0].Mobile != bank.Mask(reached) {
		t.Fatalf("the reply's report: %+v", rows)
	}
	return a.ID
}

// checkOptOut: «11» from a number the account reached through the bank is kept
// off the account's cancel-11 list (read by number, it would unmask the sender):
// the list does not show it, a quick send's quote of the number does not count
// it, and it is honoured by a reply by id; «12» from the number lifts it.
func checkOptOut(t *testing.T, e *enginetest.Engine, token string, acct int64, reached string) {
	t.Helper()
	ctx := context.Background()
	optedOut := func() bool {
		var n int
		if err := e.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM bank_optout WHERE account_id = $1 AND mobile = $2`, acct, reached).
			Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	mo := func(text string) int64 {
		if _, err := e.Sim.InjectMO(smscsim.MO{Operator: "mci", From: reached, To: "30004040", Text: text}); err != nil {
			t.Fatal(err)
		}
		var id int64
		e.Wait("the message «"+text+"»", 10*time.Second, func() bool {
			return e.DB.Pool.QueryRow(ctx, `SELECT id FROM inbox WHERE account_id = $1 AND sender = $2 AND text = $3`,
				acct, reached, text).Scan(&id) == nil
		})
		return id
	}
	id := mo("11")
	if !optedOut() {
		t.Fatal("«11» from a bank number is not kept")
	}
	var list []struct{ Number string }
	e.Must(200, "GET", "/v1/api/phonebooks/blacklist?kind=cancel11&limit=100", nil, token).Decode(t, &list)
	for _, l := range list {
		if strings.HasSuffix(l.Number, reached[2:]) {
			t.Fatalf("the cancel-11 list shows the bank number: %+v", list)
		}
	}
	var q send.Quote
	e.Must(200, "POST", "/v1/api/send/calculate-price", map[string]any{"numbers": []string{local(reached)}, "text": "x",
		"sender": "30004040"}, token).Decode(t, &q)
	if q.Blacklisted != 0 {
		t.Fatalf("a quick quote tells the number opted out: %+v", q)
	}
	if r := e.Do("POST", "/v1/api/report/messages-inbox/reply", map[string]any{"id": id, "text": "باشه"}, token); r.Status != 422 ||
		!bytes.Contains(r.Raw, []byte(send.MsgNothingToSend)) {
		t.Fatalf("a reply to a number that opted out: %d %s", r.Status, r.Raw)
	}
	id = mo("12")
	if optedOut() {
		t.Fatal("«12» did not lift the opt-out")
	}
	e.Must(201, "POST", "/v1/api/report/messages-inbox/reply", map[string]any{"id": id, "text": "خوش آمدید"}, token)
}
