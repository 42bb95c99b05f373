package assistant

import (
	"context"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// MsgProblem asks for the problem's description.
const MsgProblem = "مشکل خود را در چند جمله توضیح دهید"

// TicketDraft is a support ticket suggested from a free-text problem
// (/ticket/ai): the customer reviews it and sends it through POST /ticket.
type TicketDraft struct {
	CategoryID    int64  `json:"category_id"`
	Category      string `json:"category"`
	SubCategoryID int64  `json:"sub_category_id"`
	SubCategory   string `json:"sub_category"`
	Title         string `json:"title"`
	Text          string `json:"text"`
}

// Problem is the free-text description a draft is made from.
type Problem struct {
	Text string `json:"text"`
}

// topics map words of a problem to a category and sub-category (the titles
// seeded by migrations/0040_support.up.sql). The best-scoring topic wins.
var topics = []struct {
	category, sub string
	words         []string
}{
	{"فنی", "ارسال نشدن پیامک", []string{"ارسال نمی", "ارسال نشد", "نرسید", "نمی‌رسد", "نمیرسه", "نمی‌رسه", "دریافت نکرد", "نرفت"}},
	{"فنی", "تاخیر در تحویل پیامک", []string{"تاخیر", "تأخیر", "دیر"}},
	{"فنی", "خطا در بارگذاری فایل", []string{"فایل", "اکسل", "بارگذاری", "آپلود"}},
	{"فنی", "گزارش‌ها", []string{"گزارش"}},
	{"مالی", "پرداخت کارت به کارت", []string{"کارت به کارت", "واریز"}},
	{"مالی", "بازگشت وجه", []string{"بازگشت وجه", "برگشت پول", "استرداد", "کسر شد", "کم شد"}},
	{"مالی", "فاکتور رسمی", []string{"فاکتور"}},
	{"مالی", "افزایش اعتبار", []string{"اعتبار", "شارژ", "کیف پول", "پرداخت"}},
	{"خطوط ارسال", "خرید خط اختصاصی", []string{"خرید خط", "خرید"}},
	{"خطوط ارسال", "تمدید خط", []string{"تمدید"}},
	{"خطوط ارسال", "فعال‌سازی خط", []string{"فعال‌سازی", "فعالسازی", "فعال نشده", "خط "}},
	{"وب‌سرویس و API", "الگوها (پترن)", []string{"الگو", "پترن", "pattern"}},
	{"وب‌سرویس و API", "وب‌هوک", []string{"وب‌هوک", "وبهوک", "webhook"}},
	{"وب‌سرویس و API", "کلید API", []string{"api", "کلید", "وب‌سرویس", "وبسرویس"}},
	{"حساب کاربری", "تغییر شماره همراه", []string{"تغییر شماره", "شماره همراه", "شماره موبایل"}},
	{"حساب کاربری", "احراز هویت و مدارک", []string{"مدارک", "احراز"}},
	{"حساب کاربری", "ورود و رمز عبور", []string{"رمز", "ورود", "لاگین", "وارد شوم"}},
	{"سایر", "پیشنهاد و انتقاد", []string{"پیشنهاد", "انتقاد"}},
}

// classify returns the category and sub-category titles that fit text best
// («سایر», «سایر موارد» when nothing does).
func classify(text string) (string, string) {
	low := strings.ToLower(text)
	best, score := -1, 0
	for i, t := range topics {
		n := 0
		for _, w := range t.words {
			n += strings.Count(low, w)
		}
		if n > score {
			best, score = i, n
		}
	}
	if best < 0 {
		return "سایر", "سایر موارد"
	}
	return topics[best].category, topics[best].sub
}

// title is the problem's first sentence, cut at a word to at most 60 characters.
func title(text string) string {
	first := strings.TrimSpace(strings.TrimRight(sentences(text)[0], ".!؟\n"))
	if utf8.RuneCountInString(first) <= 60 {
		return first
	}
	words := strings.Fields(first)
	out := ""
	for _, w := range words {
		if utf8.RuneCountInString(out+" "+w) > 58 {
			break
		}
		out = strings.TrimSpace(out + " " + w)
	}
	return out + "…"
}

// DraftTicket suggests a ticket (category, sub-category and title) for a
// problem described in free text. It spends one request of the daily quota.
func (s *Service) DraftTicket(ctx context.Context, id acl.Identity, in Problem) (TicketDraft, error) {
	text := tidy(strings.TrimSpace(in.Text))
	if utf8.RuneCountInString(text) < 10 {
		return TicketDraft{}, apperr.Field("text", MsgProblem)
	}
	if utf8.RuneCountInString(text) > 5000 {
		return TicketDraft{}, apperr.Field("text", MsgLong)
	}
	if err := s.allow(ctx, id.AccountID); err != nil {
		return TicketDraft{}, err
	}
	cat, sub := classify(text)
	d := TicketDraft{Category: cat, SubCategory: sub, Title: s.ticketTitle(ctx, text), Text: text}
	if s.Categories == nil {
		return d, nil
	}
	var err error
	if d.CategoryID, err = s.categoryID(ctx, 0, cat); err != nil || d.CategoryID == 0 {
		return d, err
	}
	d.SubCategoryID, err = s.categoryID(ctx, d.CategoryID, sub)
	return d, err
}

// titlePrompt asks a remote model for a ticket's title.
const titlePrompt = "You help customers of Chapar, a Persian bulk-SMS platform, file support tickets. " +
	"Answer with one short Persian title (at most 60 characters) for the problem the user describes: the title only, " +
	"no quotes, no explanation."

// ticketTitle is a remote model's title for the problem, or the problem's first
// sentence with the offline model or when the remote one fails or rambles.
func (s *Service) ticketTitle(ctx context.Context, text string) string {
	fallback := title(text)
	if _, offline := s.model.(Offline); offline {
		return fallback
	}
	out, err := s.model.Complete(ctx, Prompt{Messages: []Message{{Role: "system", Content: titlePrompt}, {Role: "user", Content: text}}})
	if err != nil {
		slog.WarnContext(ctx, "assistant ticket title failed; the first sentence is the title", "err", err)
		return fallback
	}
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	line = strings.TrimSpace(strings.Trim(line, "\"«»`.،"))
	if line == "" || utf8.RuneCountInString(line) > 80 {
		return fallback
	}
	return line
}

// categoryID finds a category by title under parent (0 when there is none).
func (s *Service) categoryID(ctx context.Context, parent int64, title string) (int64, error) {
	cs, err := s.Categories(ctx, parent)
	if err != nil {
		return 0, err
	}
	for _, c := range cs {
		if c.Title == title {
			return c.ID, nil
		}
	}
	return 0, nil
}
