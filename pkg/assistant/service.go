package assistant

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/sms"
)

// Persian messages of the assistant's refusals.
const (
	MsgText   = "متن درخواست را بنویسید"
	MsgLong   = "متن درخواست نباید بیشتر از ۲۷۰۰ کاراکتر باشد"
	MsgAction = "عملیات دستیار نامعتبر است"
	MsgParts  = "تعداد بخش‌ها باید بین ۱ تا ۳ باشد"
	MsgQuota  = "سهمیه روزانه دستیار هوشمند برای این حساب تمام شده است؛ فردا دوباره تلاش کنید"
	// MsgUnavailable answers a free request when the remote model fails (the
	// offline model cannot stand in for it).
	MsgUnavailable = "مدل زبانی دستیار اکنون پاسخ نمی‌دهد؛ چند دقیقه دیگر دوباره تلاش کنید"
)

// Options are the service's limits.
type Options struct {
	// DailyQuota is the requests an account may make per day (ASSISTANT_DAILY_QUOTA).
	DailyQuota int
	// PerMin is the requests an account may make per minute.
	PerMin int
}

// Service answers the assistant's requests and keeps its conversations.
type Service struct {
	pool    *pgxpool.Pool
	model   Model
	limiter *ratelimit.Limiter
	opts    Options
	// Brand returns the account's brand (its name); nil: no brand.
	Brand func(ctx context.Context, accountID int64) (string, error)
	// LinkLength is the length of a sent tracked link ({link:ID} counts as that
	// many characters); 0 counts placeholders as written.
	LinkLength int
	// Categories lists the support categories (parent 0: the top ones) for
	// ticket drafts; nil: drafts suggest no category.
	Categories func(ctx context.Context, parent int64) ([]Category, error)
}

// Category is a support category as a ticket draft needs it.
type Category struct {
	ID    int64
	Title string
}

// New returns the service; model nil means the offline model, limiter nil no
// per-minute limit.
func New(pool *pgxpool.Pool, model Model, limiter *ratelimit.Limiter, opts Options) *Service {
	if model == nil {
		model = Offline{}
	}
	if opts.DailyQuota <= 0 {
		opts.DailyQuota = 200
	}
	return &Service{pool: pool, model: model, limiter: limiter, opts: opts}
}

// Ask is a chat request (spec §3 AI assistant message): the user's text and the
// conversation's id (0 starts one). A quick action rewrites Text; a chat
// request may concern the editor's Draft. Parts is the budget (1–3) and
// Cancel11 whether the opt-out footer will be appended.
type Ask struct {
	Text           string `json:"text"`
	ConversationID int64  `json:"conversation_id"`
	Action         Action `json:"action"`
	Draft          string `json:"draft"`
	Parts          int    `json:"parts"`
	Cancel11       bool   `json:"cancel11"`
}

// Reply is the assistant's answer: the text (thought), the conversation it
// belongs to, the text's counter figures and the model that wrote it. Refused
// says the assistant did not rewrite the text — a model declined, or its reply
// broke a rule of Check — and Thought is then the text as it was (empty for a
// free request); Notice says why, in Persian. Notice also tells of a reply over
// the part budget and of the offline model answering for a failed remote one.
type Reply struct {
	Thought        string `json:"thought"`
	ConversationID int64  `json:"conversation_id"`
	Parts          int    `json:"parts"`
	Characters     int    `json:"characters"`
	Model          string `json:"model"`
	Refused        bool   `json:"refused"`
	Notice         string `json:"notice,omitempty"`
}

// actionLabels are the user's turn of a quick action, as the chat shows it.
var actionLabels = map[Action]string{Shorter: "کوتاه‌تر", Longer: "بلندتر", Friendly: "لحن صمیمی", Formal: "لحن رسمی", Ad: "نوشتن تبلیغ"}

func (in *Ask) check() error {
	in.Text, in.Draft = strings.TrimSpace(in.Text), strings.TrimSpace(in.Draft)
	f := apperr.Fields{}
	if in.Text == "" {
		f.Add("text", MsgText)
	} else if utf8.RuneCountInString(in.Text) > sms.MaxTextRunes || utf8.RuneCountInString(in.Draft) > sms.MaxTextRunes {
		f.Add("text", MsgLong)
	}
	if _, ok := actionLabels[in.Action]; !ok && in.Action != Chat {
		f.Add("action", MsgAction)
	}
	if in.Parts == 0 {
		in.Parts = 1
	}
	if in.Parts < 1 || in.Parts > 3 {
		f.Add("parts", MsgParts)
	}
	return f.Err()
}

// Ask answers one request of the account's user. A free request the model
// does not offer (the offline model writes nothing freely) is refused before
// it spends the quota.
func (s *Service) Ask(ctx context.Context, id acl.Identity, in Ask) (Reply, error) {
	if err := in.check(); err != nil {
		return Reply{}, err
	}
	if !s.offers(in.Action) {
		return Reply{}, apperr.Field("text", MsgFreeOffline)
	}
	if err := s.allow(ctx, id.AccountID); err != nil {
		return Reply{}, err
	}
	in.Text, in.Draft = padLinks(in.Text, s.LinkLength), padLinks(in.Draft, s.LinkLength)
	var past []Message
	if in.ConversationID != 0 {
		var err error
		if past, err = history(ctx, s.pool, id.AccountID, in.ConversationID); err != nil {
			return Reply{}, err
		}
	}
	t, err := s.task(ctx, id.AccountID, in, past)
	if err != nil {
		return Reply{}, err
	}
	a, err := s.answer(ctx, t, past, sources(in, past))
	if err != nil {
		return Reply{}, err
	}
	st := sms.Count(padLinks(unpadLinks(a.text), s.LinkLength), in.Cancel11)
	a.text = unpadLinks(a.text)
	asked := unpadLinks(in.Text)
	if in.Action != Chat {
		asked = actionLabels[in.Action]
	}
	conv, err := record(ctx, s.pool, id.AccountID, id.UserID, in.ConversationID, asked, a.text)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Thought: a.text, ConversationID: conv, Parts: st.Parts, Characters: st.Characters, Model: a.model,
		Refused: a.refused, Notice: a.notice}, nil
}

// allow checks the per-minute limit and spends one request of the daily quota.
func (s *Service) allow(ctx context.Context, accountID int64) error {
	if s.limiter != nil && s.opts.PerMin > 0 {
		ok, retry, err := s.limiter.Allow(ctx, "assistant:"+strconv.FormatInt(accountID, 10), s.opts.PerMin, time.Minute)
		if err != nil {
			return fmt.Errorf("assistant rate limit: %w", err)
		}
		if !ok {
			return apperr.RateLimit(int(retry.Seconds()) + 1)
		}
	}
	ok, err := spend(ctx, s.pool, accountID, s.opts.DailyQuota)
	if err != nil {
		return err
	}
	if !ok {
		e := apperr.RateLimit(untilTomorrow(time.Now()))
		e.Message = MsgQuota
		return e
	}
	return nil
}

// untilTomorrow is the seconds left of the day in Tehran (UTC+3:30).
func untilTomorrow(now time.Time) int {
	tehran := now.In(time.FixedZone("IRST", 3*3600+1800))
	next := time.Date(tehran.Year(), tehran.Month(), tehran.Day()+1, 0, 0, 0, 0, tehran.Location())
	return int(next.Sub(tehran).Seconds()) + 1
}

// task builds the structured task: a quick action rewrites the text; a chat
// request works on the draft, or else on the last reply of the conversation.
func (s *Service) task(ctx context.Context, accountID int64, in Ask, past []Message) (Task, error) {
	t := Task{Action: in.Action, Text: in.Text, Parts: in.Parts, Cancel11: in.Cancel11, LinkLength: s.LinkLength}
	if in.Action == Chat {
		t.Request, t.Text = in.Text, in.Draft
		if t.Text == "" {
			t.Text = lastReply(past)
		}
	}
	if s.Brand != nil {
		b, err := s.Brand(ctx, accountID)
		if err != nil {
			return t, err
		}
		t.Brand = b
	}
	return t, nil
}

func lastReply(past []Message) string {
	for i := len(past) - 1; i >= 0; i-- {
		if past[i].Role == "assistant" {
			return past[i].Content
		}
	}
	return ""
}

// prompt is the conversation a remote model reads: the rules, the history and
// the request.
func prompt(t Task, past []Message) []Message {
	out := make([]Message, 0, len(past)+2)
	out = append(out, Message{Role: "system", Content: systemPrompt(t)})
	out = append(out, past...)
	return append(out, Message{Role: "user", Content: userPrompt(t)})
}

// sources is what the user wrote: the only place links and numbers may come from.
func sources(in Ask, past []Message) string {
	var b strings.Builder
	b.WriteString(in.Text + "\n" + in.Draft)
	for _, m := range past {
		if m.Role == "user" {
			b.WriteString("\n" + m.Content)
		}
	}
	return b.String()
}

// offers reports whether the model performs the action (a model that does not
// say performs all of them).
func (s *Service) offers(a Action) bool {
	if o, ok := s.model.(interface{ Offers(Action) bool }); ok {
		return o.Offers(a)
	}
	return true
}
