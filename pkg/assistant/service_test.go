package assistant

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/ratelimit"
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
// quick action continues it, another account cannot; free writing is refused
// by the offline model before it spends the quota.
func TestConversation(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	svc := New(d.Pool, nil, nil, Options{DailyQuota: 10})
	svc.Brand = brandOf(d)
	a, b := account(t, d, "کفش آریا"), account(t, d, "دیگری")
	_, err := svc.Ask(ctx, a, Ask{Text: "یک تبلیغ برای تخفیف ۲۰ درصدی کفش تا ۱۵ آذر بنویس", Parts: 2})
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Invalid || e.Message != MsgFreeOffline {
		t.Fatalf("free writing offline: %v", err)
	}
	draft := "مشتری گرامی، بدین وسیله به اطلاع می‌رساند که فروش ویژه پاییزه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود. فرصت را از دست ندهید!"
	r1, err := svc.Ask(ctx, a, Ask{Text: draft, Action: Shorter, Parts: 2, Cancel11: true})
	want := "فروش ویژه پاییزه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود."
	if err != nil || r1.ConversationID == 0 || r1.Thought != want || r1.Refused || r1.Notice != "" || r1.Parts != 2 || r1.Model != "offline" {
		t.Fatalf("first reply: %+v %v", r1, err)
	}
	r2, err := svc.Ask(ctx, a, Ask{Text: r1.Thought, Action: Formal, ConversationID: r1.ConversationID, Parts: 2, Cancel11: true})
	if err != nil || r2.ConversationID != r1.ConversationID || r2.Thought != "با سلام و احترام، "+strings.Replace(want, "می‌شود", "می‌گردد", 1) {
		t.Fatalf("second reply: %+v %v", r2, err)
	}
	if _, err := svc.Ask(ctx, b, Ask{Text: "متن", Action: Shorter, ConversationID: r1.ConversationID}); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("another account's conversation: %v", err)
	}
	var n, used int
	_ = d.Pool.QueryRow(ctx, `SELECT count(*) FROM assistant_messages WHERE conversation_id = $1`, r1.ConversationID).Scan(&n)
	_ = d.Pool.QueryRow(ctx, `SELECT requests FROM assistant_usage WHERE account_id = $1`, a.AccountID).Scan(&used)
	if n != 4 || used != 2 {
		t.Errorf("%d messages stored (want 4), %d requests counted (want 2: the refused free request is not)", n, used)
	}
	// A tracked link counts at its sent length (here 40): the reply fits 2
	// parts with it, and keeps the placeholder without the padding.
	svc.LinkLength = 40
	r3, err := svc.Ask(ctx, a, Ask{Text: "فروش ویژه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر. خرید آنلاین: {link:7}", Action: Longer, Parts: 2})
	if err != nil || !strings.Contains(r3.Thought, "{link:7}\n") || strings.Contains(r3.Thought, "_") ||
		r3.Parts != parts(padLinks(r3.Thought, 40), false) || r3.Parts > 2 {
		t.Errorf("tracked link: %+v %v", r3, err)
	}
	if _, err := svc.Ask(ctx, a, Ask{Text: " ", Parts: 4}); err == nil {
		t.Error("an empty text and 4 parts were accepted")
	}
}

// TestOfflineNotices: a text the offline model cannot rewrite stays as it
// was, with the reason; a shorter text still over the budget comes with a
// notice saying so.
func TestOfflineNotices(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	svc := New(d.Pool, nil, nil, Options{DailyQuota: 10})
	a := account(t, d, "کافه لاته")
	text := "سلام! امروز قهوه دوم رو در کافه لاته مهمون ما باش. فقط تا ساعت ۱۸."
	r, err := svc.Ask(ctx, a, Ask{Text: text, Action: Formal, Parts: 2})
	if err != nil || !r.Refused || r.Thought != text || !strings.Contains(r.Notice, "محاوره‌ای") || r.Parts != 1 {
		t.Errorf("formal of a colloquial text: %+v %v", r, err)
	}
	long := "کفش آریا: ۲۰٪ تخفیف روی همه کفش‌های زمستانی فقط تا پایان این هفته در شعبه خیابان ولیعصر، بالاتر از پارک ساعی، پلاک ۲۱۴۰. منتظر حضور گرم شما هستیم!"
	r, err = svc.Ask(ctx, a, Ask{Text: long, Action: Shorter, Parts: 1})
	if err != nil || r.Refused || r.Parts != 2 || strings.Contains(r.Thought, "منتظر") || !strings.Contains(r.Thought, "۲۰٪") ||
		r.Notice != fmt.Sprintf(MsgOverBudget, "۲", "۱") {
		t.Errorf("shorter over the budget: %+v %v", r, err)
	}
}

func TestDailyQuotaAndRate(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	svc := New(d.Pool, nil, nil, Options{DailyQuota: 3})
	a, b := account(t, d, "الف"), account(t, d, "ب")
	ask := Ask{Text: "سلام، تخفیف ۲۰ درصد تا فردا.", Action: Formal}
	for i := range 3 {
		if _, err := svc.Ask(ctx, a, ask); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	_, err := svc.Ask(ctx, a, ask)
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.RateLimited || e.Message != MsgQuota || e.RetryAfter <= 0 {
		t.Fatalf("over the quota: %v", err)
	}
	if _, err := svc.DraftTicket(ctx, a, Problem{Text: "پیامک‌های من به مشترکین نمی‌رسد"}); err == nil {
		t.Error("a ticket draft past the quota")
	}
	if _, err := svc.Ask(ctx, b, ask); err != nil {
		t.Errorf("another account shares the quota: %v", err)
	}
	rdb := testenv.RedisDB(t)
	limited := New(d.Pool, nil, ratelimit.New(rdb.Client, "t:"), Options{DailyQuota: 100, PerMin: 1})
	c := account(t, d, "ج")
	if _, err := limited.Ask(ctx, c, ask); err != nil {
		t.Fatal(err)
	}
	if _, err := limited.Ask(ctx, c, ask); err == nil {
		t.Error("the per-minute limit let a second request through")
	}
}

// remoteService is the service with a remote model at srv.
func remoteService(d testenv.Database, url string) *Service {
	svc := New(d.Pool, &OpenAI{BaseURL: url + "/v1", Model: "qwen2.5-7b-instruct", Key: "sk-test", Stream: true,
		Timeout: 5 * time.Second}, nil, Options{DailyQuota: 100})
	svc.Brand = brandOf(d)
	return svc
}

// TestRemoteRequest: the exact request a remote model gets for each quick
// action and for a free request (testdata/remote/*.json; -update rewrites
// them): the system prompt with the rules (facts kept, none added, the part
// budget and the footer, correct Persian, the register, the brand), the
// conversation, the model, streaming and the token bound.
func TestRemoteRequest(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	var got []chatRequest
	var raw [][]byte
	srv := scriptedServer(t, func(req chatRequest) string { return "متن" }, &got, &raw)
	svc := remoteService(d, srv.URL)
	a := account(t, d, "کفش آریا")
	text := "مشتری گرامی، فروش ویژه پاییزه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود. فرصت را از دست ندهید!"
	for _, act := range QuickActions {
		if _, err := svc.Ask(ctx, a, Ask{Text: text, Action: act, Parts: 2, Cancel11: true}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := svc.Ask(ctx, a, Ask{Text: "یک تبلیغ برای همین فروش بنویس", Draft: text, Parts: 1})
	if err != nil || len(raw) != 5 {
		t.Fatalf("free request: %+v %v (%d requests)", r, err, len(raw))
	}
	for i, name := range []string{"shorter", "longer", "friendly", "formal", "chat"} {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, raw[i], "", "  "); err != nil {
			t.Fatal(err)
		}
		golden(t, "testdata/remote/"+name+".json", pretty.String()+"\n")
	}
}

// TestRemoteAnswersChecked: the remote model's answer passes the same checker
// as the offline model's: a good rewrite is shown; one that drops a number,
// adds one, breaks a ZWNJ or keeps a formal word in a friendly text is refused
// and the text stays as it was, with the reason.
func TestRemoteAnswersChecked(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	text := "مشتری گرامی، می‌خواهیم شما را در فروش ویژه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر ببینیم. جهت خرید به فروشگاه مراجعه نمایید."
	cases := []struct {
		name, answer, notice string
		action               Action
	}{
		{"good", "سلام دوست عزیز! می‌خواهیم شما را در فروش ویژه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر ببینیم. به فروشگاه سر بزنید!", "", Friendly},
		{"a number dropped", "سلام دوست عزیز! می‌خواهیم شما را در فروش ویژه کفش آریا ببینیم. به فروشگاه سر بزنید!", "«۳۰ درصد» در پاسخ نبود", Friendly},
		{"a number added", "کفش آریا: ۳۰ درصد تخفیف تا ۱۵ آذر، و ۵۰ درصد برای عضوها!", "«۵۰ درصد» در متن شما نبود", Shorter},
		{"a ZWNJ broken", "سلام! می خواهیم شما را در فروش ویژه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر ببینیم. سر بزنید!", "«می خواهیم» بدون نیم‌فاصله", Friendly},
		{"the register kept", "سلام! می‌خواهیم شما را در فروش ویژه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر ببینیم. مراجعه نمایید.", "«نمایید» با لحن", Friendly},
		{"the brand dropped", "۳۰ درصد تخفیف تا ۱۵ آذر! به فروشگاه بیایید.", "نام تجاری «کفش آریا» در پاسخ نبود", Shorter},
	}
	a := account(t, d, "کفش آریا")
	for _, c := range cases {
		var got []chatRequest
		srv := scriptedServer(t, func(chatRequest) string { return c.answer }, &got, nil)
		r, err := remoteService(d, srv.URL).Ask(ctx, a, Ask{Text: text, Action: c.action, Parts: 3})
		if err != nil || r.Model != "qwen2.5-7b-instruct" {
			t.Fatalf("%s: %+v %v", c.name, r, err)
		}
		if c.notice == "" {
			if r.Refused || r.Thought != c.answer || r.Notice != "" {
				t.Errorf("%s: refused a good answer: %+v", c.name, r)
			}
			continue
		}
		if !r.Refused || r.Thought != text || !strings.Contains(r.Notice, c.notice) || !strings.HasPrefix(r.Notice, "پاسخ کنار گذاشته شد") {
			t.Errorf("%s: %+v, want refused with %q", c.name, r, c.notice)
		}
	}
}

// TestRemoteTrackedLink: a remote model sees a tracked link as the user wrote
// it, told the length it is sent at; its reply with the placeholder is counted
// at that length.
func TestRemoteTrackedLink(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	var got []chatRequest
	answer := "کفش آریا: ۳۰ درصد تخفیف تا ۱۵ آذر! خرید: {link:7}"
	srv := scriptedServer(t, func(chatRequest) string { return answer }, &got, nil)
	svc := remoteService(d, srv.URL)
	svc.LinkLength = 40
	a := account(t, d, "کفش آریا")
	r, err := svc.Ask(ctx, a, Ask{Text: "مشتری گرامی، کفش آریا: ۳۰ درصد تخفیف تا ۱۵ آذر برای شما! خرید: {link:7}", Action: Shorter, Parts: 2})
	if err != nil || r.Refused || r.Thought != answer || r.Parts != parts(padLinks(answer, 40), false) || r.Characters < 60 {
		t.Fatalf("reply: %+v %v", r, err)
	}
	if user := got[0].Messages[1].Content; !strings.HasSuffix(user, "خرید: {link:7}") {
		t.Errorf("the model saw the padding: %q", user)
	}
	if sys := got[0].Messages[0].Content; !strings.Contains(sys, "Each {link:N} placeholder is sent as a link of 40 characters.") {
		t.Errorf("system prompt: %s", sys)
	}
}

// TestRemoteFailure: when the remote model fails — an error status, a reply
// past the time-out, a stream cut off — a rewrite is answered by the offline
// model with a notice, and a free request gets a clear Persian 503; never a
// half answer.
func TestRemoteFailure(t *testing.T) {
	d := testenv.Postgres(t)
	ctx := context.Background()
	a := account(t, d, "کفش آریا")
	release := make(chan struct{})
	defer close(release)
	servers := map[string]http.HandlerFunc{
		"status 502": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) },
		"time-out": func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the client leave
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
		"cut stream": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"کفش آریا: ۳۰ درصد تخفیف\"}}]}\n\n")
		},
	}
	text := "مشتری گرامی، فروش ویژه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود. فرصت را از دست ندهید!"
	for name, h := range servers {
		srv := httptest.NewServer(h)
		svc := New(d.Pool, &OpenAI{BaseURL: srv.URL, Model: "m", Stream: true, Timeout: 500 * time.Millisecond}, nil, Options{DailyQuota: 100})
		r, err := svc.Ask(ctx, a, Ask{Text: text, Action: Shorter, Parts: 2})
		if err != nil || r.Model != "offline" || r.Refused || r.Thought != "فروش ویژه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود." ||
			r.Notice != MsgFallback {
			t.Errorf("%s, shorter: %+v %v", name, r, err)
		}
		r, err = svc.Ask(ctx, a, Ask{Text: "کد ورود: 123456\n@chapar.ir #123456", Action: Friendly, Parts: 2})
		if err != nil || !r.Refused || !strings.HasPrefix(r.Notice, MsgFallback) || !strings.Contains(r.Notice, MsgFixedForm) {
			t.Errorf("%s, a rewrite the offline model declines: %+v %v", name, r, err)
		}
		_, err = svc.Ask(ctx, a, Ask{Text: "یک تبلیغ برای کفش بنویس", Parts: 1})
		if e, ok := apperr.As(err); !ok || e.Kind != apperr.Unavailable || e.Message != MsgUnavailable {
			t.Errorf("%s, free request: %v", name, err)
		}
		srv.Close()
	}
}

// TestCapabilities: the offline model offers the four rewrites with what each
// does and says that free writing needs a remote model; a remote model offers
// everything.
func TestCapabilities(t *testing.T) {
	off := New(nil, nil, nil, Options{}).Capabilities()
	if off.Remote || off.FreeWriting || off.Model != "offline" || off.Notice != MsgOfflineNotice || len(off.Actions) != 4 {
		t.Fatalf("offline: %+v", off)
	}
	for _, a := range off.Actions {
		if !a.Available || a.Note == "" || a.Label == "" {
			t.Errorf("offline %s: %+v", a.Action, a)
		}
	}
	on := New(nil, &OpenAI{Model: "qwen"}, nil, Options{}).Capabilities()
	if !on.Remote || !on.FreeWriting || on.Model != "qwen" || on.Notice != "" || len(on.Actions) != 4 || !on.Actions[2].Available {
		t.Errorf("remote: %+v", on)
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
