package assistant

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/testenv"
)

func account(t *testing.T, d testenv.Database, name string) acl.Identity {
	t.Helper()
	var id acl.Identity
	if err := d.Pool.QueryRow(context.Background(), `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, name).Scan(&id.AccountID); err != nil {
		t.Fatal(err)
	}
	return id
}

func brandOf(d testenv.Database) func(context.Context, int64) (string, error) {
	return func(ctx context.Context, acc int64) (string, error) {
		var n string
		err := d.Pool.QueryRow(ctx, `SELECT name FROM accounts WHERE id = $1`, acc).Scan(&n)
		return n, err
	}
}

// TestConversation: the first reply gives the conversation its id, the next
// request continues it (a rewrite of the last reply), another account cannot.
func TestConversation(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	svc := New(d.Pool, nil, nil, Options{DailyQuota: 10})
	svc.Brand = brandOf(d)
	a, b := account(t, d, "کفش آریا"), account(t, d, "دیگری")
	r1, err := svc.Ask(ctx, a, Ask{Text: "یک تبلیغ برای تخفیف ۲۰ درصدی کفش تا ۱۵ آذر بنویس", Parts: 2, Cancel11: true})
	if err != nil || r1.ConversationID == 0 || !strings.HasPrefix(r1.Thought, "کفش آریا") || r1.Parts > 2 || r1.Model != "offline" {
		t.Fatalf("first reply: %+v %v", r1, err)
	}
	r2, err := svc.Ask(ctx, a, Ask{Text: "لحنش را رسمی کن", ConversationID: r1.ConversationID, Parts: 2, Cancel11: true})
	if err != nil || r2.ConversationID != r1.ConversationID || !strings.Contains(r2.Thought, "۲۰") {
		t.Fatalf("second reply: %+v %v", r2, err)
	}
	if _, err := svc.Ask(ctx, b, Ask{Text: "کوتاهش کن", ConversationID: r1.ConversationID}); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("another account's conversation: %v", err)
	}
	var n int
	_ = d.Pool.QueryRow(ctx, `SELECT count(*) FROM assistant_messages WHERE conversation_id = $1`, r1.ConversationID).Scan(&n)
	if n != 4 {
		t.Errorf("%d messages stored, want 4", n)
	}
	// A tracked link counts at its sent length (here 40): the reply fits 2
	// parts with it, and keeps the placeholder without the padding.
	svc.LinkLength = 40
	draft := "فروش ویژه پاییزه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود. خرید آنلاین: {link:7} منتظر حضور گرم شما هستیم."
	r3, err := svc.Ask(ctx, a, Ask{Text: draft, Action: Longer, Parts: 2})
	if err != nil || !strings.Contains(r3.Thought, "{link:7} ") || strings.Contains(r3.Thought, "_") ||
		r3.Parts != parts(padLinks(r3.Thought, 40), false) || r3.Parts > 2 {
		t.Errorf("tracked link: %+v %v", r3, err)
	}
	if _, err := svc.Ask(ctx, a, Ask{Text: " ", Parts: 4}); err == nil {
		t.Error("an empty text and 4 parts were accepted")
	}
}

func TestDailyQuotaAndRate(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	svc := New(d.Pool, nil, nil, Options{DailyQuota: 3})
	a, b := account(t, d, "الف"), account(t, d, "ب")
	for i := range 3 {
		if _, err := svc.Ask(ctx, a, Ask{Text: "کوتاه کن: سلام، تخفیف ۲۰ درصد تا فردا", Action: Chat}); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	_, err := svc.Ask(ctx, a, Ask{Text: "سلام دوباره", Action: Chat})
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.RateLimited || e.Message != MsgQuota || e.RetryAfter <= 0 {
		t.Fatalf("over the quota: %v", err)
	}
	if _, err := svc.DraftTicket(ctx, a, Problem{Text: "پیامک‌های من به مشترکین نمی‌رسد"}); err == nil {
		t.Error("a ticket draft past the quota")
	}
	if _, err := svc.Ask(ctx, b, Ask{Text: "سلام دوباره"}); err != nil {
		t.Errorf("another account shares the quota: %v", err)
	}
	rdb := testenv.RedisDB(t)
	limited := New(d.Pool, nil, ratelimit.New(rdb.Client, "t:"), Options{DailyQuota: 100, PerMin: 1})
	c := account(t, d, "ج")
	if _, err := limited.Ask(ctx, c, Ask{Text: "سلام"}); err != nil {
		t.Fatal(err)
	}
	if _, err := limited.Ask(ctx, c, Ask{Text: "سلام"}); err == nil {
		t.Error("the per-minute limit let a second request through")
	}
}

// TestRemoteModelAndFallback: with a remote model the reply passes the
// guardrails; when it fails the offline model answers.
func TestRemoteModelAndFallback(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	var got []chatRequest
	srv := chatServer(t, "تخفیف ۲۰ درصد! سفارش: https://invented.example.com یا 09121112233", &got)
	svc := New(d.Pool, &OpenAI{BaseURL: srv.URL + "/v1", Model: "m", Key: "sk-test", Stream: true, Timeout: 5 * time.Second},
		nil, Options{DailyQuota: 10})
	svc.Brand = brandOf(d)
	a := account(t, d, "کفش آریا")
	r, err := svc.Ask(ctx, a, Ask{Text: "یک تبلیغ برای تخفیف ۲۰ درصدی بنویس", Parts: 1, Cancel11: true})
	if err != nil || r.Model != "m" || strings.Contains(r.Thought, "invented") || strings.Contains(r.Thought, "0912") ||
		!strings.HasPrefix(r.Thought, "کفش آریا") || r.Parts != 1 {
		t.Fatalf("remote reply: %+v %v", r, err)
	}
	sys := got[0].Messages[0].Content
	for _, w := range []string{"at most 1 SMS part", "لغو۱۱", "Never invent links or phone numbers", "«کفش آریا»"} {
		if !strings.Contains(sys, w) {
			t.Errorf("system prompt lacks %q: %s", w, sys)
		}
	}
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) }))
	defer down.Close()
	svc = New(d.Pool, &OpenAI{BaseURL: down.URL, Model: "m", Timeout: time.Second}, nil, Options{DailyQuota: 10})
	r, err = svc.Ask(ctx, a, Ask{Text: "متن تخفیف ۲۰ درصدی تا ۱۵ آذر", Action: Shorter, Parts: 1})
	if err != nil || r.Model != "offline" || !strings.Contains(r.Thought, "۲۰") {
		t.Errorf("fallback: %+v %v", r, err)
	}
}

// TestTicketTitleFromRemoteModel: with a remote model the title is its answer;
// a rambling or failing model leaves the first sentence.
func TestTicketTitleFromRemoteModel(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	a := account(t, d, "الف")
	var got []chatRequest
	srv := chatServer(t, "«عدم تحویل پیامک به مشترکین ایرانسل»", &got)
	svc := New(d.Pool, &OpenAI{BaseURL: srv.URL + "/v1", Model: "m", Key: "sk-test", Timeout: 5 * time.Second}, nil, Options{DailyQuota: 10})
	problem := "از دیروز پیامک‌های من به مشترکین ایرانسل نمی‌رسد. گزارش تحویل هم خالی است."
	dr, err := svc.DraftTicket(ctx, a, Problem{Text: problem})
	if err != nil || dr.Title != "عدم تحویل پیامک به مشترکین ایرانسل" || dr.SubCategory != "ارسال نشدن پیامک" {
		t.Errorf("remote title: %+v %v", dr, err)
	}
	if len(got) != 1 || !strings.Contains(got[0].Messages[0].Content, "title") {
		t.Errorf("requests: %+v", got)
	}
	svc = New(d.Pool, &OpenAI{BaseURL: srv.URL + "/v1", Model: "m", Key: "wrong", Timeout: 5 * time.Second}, nil, Options{DailyQuota: 10})
	if dr, err := svc.DraftTicket(ctx, a, Problem{Text: problem}); err != nil || dr.Title != "از دیروز پیامک‌های من به مشترکین ایرانسل نمی‌رسد" {
		t.Errorf("fallback title: %+v %v", dr, err)
	}
}

func TestPurge(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	a := account(t, d, "الف")
	if _, err := d.Pool.Exec(ctx, `INSERT INTO assistant_conversations (account_id, last_at) VALUES
		($1, now() - interval '31 days'), ($1, now() - interval '29 days')`, a.AccountID); err != nil {
		t.Fatal(err)
	}
	n, err := Purge(ctx, d.Pool, 100)
	var left int
	_ = d.Pool.QueryRow(ctx, `SELECT count(*) FROM assistant_conversations`).Scan(&left)
	if err != nil || n != 1 || left != 1 {
		t.Errorf("purged %d (%v), %d left", n, err, left)
	}
}

func TestDraftTicket(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	svc := New(d.Pool, nil, nil, Options{DailyQuota: 10})
	svc.Categories = func(ctx context.Context, parent int64) ([]Category, error) {
		rows, err := d.Pool.Query(ctx, `SELECT id, title FROM ticket_categories WHERE coalesce(parent_id, 0) = $1`, parent)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []Category
		for rows.Next() {
			var c Category
			_ = rows.Scan(&c.ID, &c.Title)
			out = append(out, c)
		}
		return out, rows.Err()
	}
	a := account(t, d, "الف")
	cases := map[string][2]string{
		"از دیروز پیامک‌های من به مشترکین ایرانسل نمی‌رسد. گزارش تحویل هم خالی است.": {"فنی", "ارسال نشدن پیامک"},
		"مبلغ ۵۰۰ هزار تومان کارت به کارت کردم ولی به کیف پول اضافه نشد":             {"مالی", "پرداخت کارت به کارت"},
		"برای تمدید خط اختصاصی ۳۰۰۰ چه کار باید بکنم؟":                               {"خطوط ارسال", "تمدید خط"},
		"کلید API که ساختم خطای ۴۰۱ می‌دهد":                                          {"وب‌سرویس و API", "کلید API"},
		"یک سوال کلی درباره قیمت‌ها داشتم":                                           {"سایر", "سایر موارد"},
	}
	for text, want := range cases {
		dr, err := svc.DraftTicket(ctx, a, Problem{Text: text})
		if err != nil || dr.Category != want[0] || dr.SubCategory != want[1] || dr.CategoryID == 0 || dr.SubCategoryID == 0 ||
			dr.Title == "" || len([]rune(dr.Title)) > 61 || dr.Text != text {
			t.Errorf("%q: %+v %v", text, dr, err)
		}
	}
	if _, err := svc.DraftTicket(ctx, a, Problem{Text: "کمک"}); err == nil {
		t.Error("a two-word problem was drafted")
	}
}
