package assistant

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
)

// Notices of the service (Reply.Notice).
const (
	MsgRefused    = "پاسخ کنار گذاشته شد، چون %s؛ متن شما بدون تغییر ماند."
	MsgOverBudget = "کوتاه‌ترین متن درستی که بی‌آنکه اطلاعاتی از دست برود به دست آمد %s بخش است، بیش از حداکثر %s بخش؛ " +
		"برای رسیدن به آن، بخشی از متن را خودتان کنار بگذارید."
	MsgFallback = "مدل زبانی پاسخ نداد؛ این پاسخ را دستیار آفلاین نوشت."
)

// answer is what the service makes of a model's reply.
type answer struct {
	text, model, notice string
	refused             bool
}

// answer asks the model and judges its reply. When a remote model fails, the
// offline one answers a rewrite and a free request is refused with
// MsgUnavailable: never a half answer.
func (s *Service) answer(ctx context.Context, t Task, past []Message, src string) (answer, error) {
	p := Prompt{Messages: prompt(t, past), Task: t}
	out, err := s.model.Complete(ctx, p)
	model, notice := s.model.Name(), ""
	var d *Declined
	if err != nil && !errors.As(err, &d) && ctx.Err() == nil {
		slog.WarnContext(ctx, "assistant model failed", "model", s.model.Name(), "action", t.Action, "err", err,
			"timeout", errors.Is(err, context.DeadlineExceeded))
		if !(Offline{}).Offers(t.Action) {
			return answer{}, apperr.New(apperr.Unavailable, MsgUnavailable)
		}
		out, err = Offline{}.Complete(ctx, p)
		model, notice = Offline{}.Name(), MsgFallback
	}
	if errors.As(err, &d) {
		return refusal(t, model, joinNotes(notice, d.Reason)), nil
	}
	if err != nil {
		return answer{}, fmt.Errorf("assistant: %w", err)
	}
	out = padLinks(unpadLinks(clean(out)), t.LinkLength) // a remote model writes placeholders unpadded
	ad := t.Action == Ad || t.Action == Chat && adRequest(t.Request)
	if brand := normalizeLetters(t.Brand); ad && brand != "" && !strings.Contains(out, brand) {
		out = brand + "\n" + out
	}
	return judge(ctx, t, out, Spec{Action: t.Action, Brand: t.Brand, Parts: t.Parts, Cancel11: t.Cancel11, Sources: src, Ad: ad},
		model, notice), nil
}

// judge checks a reply (Check): a reply with a problem is refused and the text
// stays as it was; a shorter text that is correct but over the budget is given
// with a notice that says so.
func judge(ctx context.Context, t Task, out string, sp Spec, model, notice string) answer {
	ps := Check(t.Text, out, sp)
	if len(ps) == 1 && ps[0].Rule == RuleBudget && t.Action == Shorter {
		n := persian.Digits(fmt.Sprint(parts(out, t.Cancel11)))
		return answer{text: out, model: model, notice: joinNotes(notice,
			fmt.Sprintf(MsgOverBudget, n, persian.Digits(fmt.Sprint(Budget(t.Parts)))))}
	}
	if len(ps) > 0 {
		slog.InfoContext(ctx, "assistant reply refused", "model", model, "action", t.Action, "rule", ps[0].Rule,
			"detail", ps[0].Detail, "problems", len(ps))
		return refusal(t, model, joinNotes(notice, fmt.Sprintf(MsgRefused, ps[0].Message())))
	}
	return answer{text: out, model: model, notice: notice}
}

// refusal leaves the text as it was (nothing for a free request).
func refusal(t Task, model, notice string) answer {
	text := t.Text
	if t.Action == Chat {
		text = ""
	}
	return answer{text: text, model: model, notice: notice, refused: true}
}

func joinNotes(a, b string) string { return strings.TrimSpace(a + " " + b) }

// Capabilities say what the assistant does with the model configured: the
// panel shows them (GET /panel/agent).
type Capabilities struct {
	// Model is "offline" or the remote model's name; Remote whether it is remote.
	Model  string `json:"model"`
	Remote bool   `json:"remote"`
	// FreeWriting says whether free requests (an ad, any wish) are answered.
	FreeWriting bool `json:"free_writing"`
	// Notice explains, in Persian, what the offline model does not do.
	Notice  string       `json:"notice,omitempty"`
	Actions []ActionInfo `json:"actions"`
}

// ActionInfo is one quick action: whether it is available and, in Persian,
// what it does with this model.
type ActionInfo struct {
	Action    Action `json:"action"`
	Label     string `json:"label"`
	Available bool   `json:"available"`
	Note      string `json:"note"`
}

// MsgOfflineNotice tells the panel what the offline model is.
const MsgOfflineNotice = "دستیار آفلاین (قاعده‌محور) فعال است: متن موجود را بازنویسی می‌کند و چیزی از خودش نمی‌نویسد. " +
	"نوشتن آزاد، مثل نوشتن تبلیغ تازه، به مدل زبانی نیاز دارد که مدیر سامانه باید آن را تنظیم کند."

// offlineNotes say what each quick action of the offline model does.
var offlineNotes = map[Action]string{
	Shorter:  "تعارف، عبارت‌های زائد و جمله‌های بی‌خبر حذف می‌شود؛ عددها، تاریخ‌ها، پیوندها و نام تجاری می‌مانند.",
	Longer:   "فقط خطاب، «با سپاس» و امضای نام تجاری افزوده می‌شود؛ مطلب تازه‌ای نوشته نمی‌شود.",
	Friendly: "عبارت‌های رسمی با معادل صمیمی عوض می‌شود و سلام افزوده می‌شود.",
	Formal:   "خطاب و فعل‌ها رسمی می‌شود؛ متن محاوره‌ای را دستیار آفلاین رسمی نمی‌کند.",
}

// QuickActions are the panel's quick actions, in order.
var QuickActions = []Action{Shorter, Longer, Friendly, Formal}

// Capabilities lists the quick actions and free writing with this model.
func (s *Service) Capabilities() Capabilities {
	_, offline := s.model.(Offline)
	c := Capabilities{Model: s.model.Name(), Remote: !offline, FreeWriting: s.offers(Chat)}
	if offline {
		c.Notice = MsgOfflineNotice
	}
	for _, a := range QuickActions {
		info := ActionInfo{Action: a, Label: actionLabels[a], Available: s.offers(a)}
		if offline {
			info.Note = offlineNotes[a]
		}
		c.Actions = append(c.Actions, info)
	}
	return c
}
