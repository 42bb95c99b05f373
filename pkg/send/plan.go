package send

import (
	"strconv"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/sms"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of the send domain (spec §5 Sending).
const (
	MsgTextRequired    = "متن پیامک را وارد کنید"
	MsgNumbersRequired = "حداقل یک شماره گیرنده وارد کنید"
	MsgTooManyNumbers  = "تعداد شماره‌ها بیش از حد مجاز است"
	MsgBadNumbers      = "لطفا شماره موبایل صحیح وارد کنید"
	MsgSendAtPast      = "زمان ارسال باید دست‌کم ۵ دقیقه بعد از اکنون باشد"
	MsgNotStoppable    = "این ارسال دیگر قابل توقف نیست"
	MsgBadType         = "نوع ارسال معتبر نیست"
	MsgNothingToSend   = "همه شماره‌ها در لیست سیاه یا لغو۱۱ هستند؛ پیامکی برای ارسال نمی‌ماند"
	// MsgCancel11Required refuses cancel11: false on an advertising line.
	MsgCancel11Required = "پیامک‌های خط تبلیغاتی باید عبارت «لغو۱۱» را داشته باشند؛ حذف آن مجاز نیست"
	// MsgIdempotencyReused refuses an Idempotency-Key sent again with another request.
	MsgIdempotencyReused = "این کلید یکتایی (Idempotency-Key) پیش‌تر برای درخواست دیگری به کار رفته است؛ برای ارسال تازه، کلید تازه‌ای بفرستید"
)

// CodeIdempotencyReused is the message_code of MsgIdempotencyReused.
const CodeIdempotencyReused = "idempotency-key-reused"

// MaxQuickNumbers caps a quick send's numbers in one request.
const MaxQuickNumbers = 100_000

// OperatorPrice is one operator's share of a send.
type OperatorPrice struct {
	Operator   string `json:"operator"`
	Recipients int    `json:"recipients"`
	Parts      int64  `json:"parts"`
	Price      int64  `json:"price"`
}

// Quote is the answer of calculate-price and the price a send holds.
type Quote struct {
	Parts       int    `json:"parts"`
	Encoding    string `json:"encoding"`
	Characters  int    `json:"characters"`
	CharsLeft   int    `json:"chars_left"`
	Cancel11    bool   `json:"cancel11"`
	Requested   int    `json:"requested"`
	Recipients  int    `json:"recipients"`
	Duplicates  int    `json:"duplicates"`
	Invalid     int    `json:"invalid"`
	Blacklisted int    `json:"blacklisted"`
	// OperatorBlocked, on an advertising line, are the recipients on their
	// operator's advertising block list (*800#): not sent, not charged, and not
	// counted in Blacklisted.
	OperatorBlocked int             `json:"operator_blocked"`
	TotalParts      int64           `json:"total_parts"`
	Price           int64           `json:"price"`
	Charity         int64           `json:"charity"`
	PerOperator     []OperatorPrice `json:"per_operator"`
	// SendHours, on an advertising line, says whether the send may go at its
	// time and when the window next opens (window.go).
	SendHours *OutsideHours `json:"send_hours,omitempty"`
	// Gradual, on a gradual send, is its pace and expected end (gradual.go).
	Gradual *GradualInfo `json:"gradual,omitempty"`
	// Preview is the first rows of a send whose rows carry their own texts
	// (personalised phonebook, keyword, peer-to-peer): each as the handset gets it.
	Preview []PreviewRow `json:"preview,omitempty"`
}

// PreviewRows is how many rows a quote previews.
const PreviewRows = 5

// PreviewRow is one recipient of a quote's preview: the rendered text, its parts
// and its price.
type PreviewRow struct {
	Mobile string `json:"mobile"` // 0912…
	Text   string `json:"text"`
	Parts  int    `json:"parts"`
	Price  int64  `json:"price"`
}

// normalizeNumbers validates, normalises and dedupes numbers, keeping their order.
func normalizeNumbers(raw []string) (unique []string, duplicates int, err error) {
	if len(raw) == 0 {
		return nil, 0, apperr.Field("numbers", MsgNumbersRequired)
	}
	if len(raw) > MaxQuickNumbers {
		return nil, 0, apperr.Field("numbers", MsgTooManyNumbers)
	}
	seen := make(map[string]struct{}, len(raw))
	var bad []string // 1-based positions: the numbers themselves are never echoed
	for i, r := range raw {
		m, ok := validate.NormalizeMobile(r)
		if !ok {
			if len(bad) < 10 {
				bad = append(bad, persian.Digits(strconv.Itoa(i+1)))
			}
			continue
		}
		if _, dup := seen[m]; dup {
			duplicates++
			continue
		}
		seen[m] = struct{}{}
		unique = append(unique, m)
	}
	if len(bad) > 0 {
		return nil, 0, apperr.Field("numbers", MsgBadNumbers+" (ردیف "+strings.Join(bad, "، ")+")")
	}
	return unique, duplicates, nil
}

// checkText validates a message text.
func checkText(text string) error {
	if strings.TrimSpace(text) == "" {
		return apperr.Field("text", MsgTextRequired)
	}
	if err := sms.CheckLength(text); err != nil {
		return apperr.Field("text", err.Error())
	}
	return nil
}

// quoteAcc sums planned recipients per operator.
type quoteAcc struct {
	per     map[string]*OperatorPrice
	preview []PreviewRow
}

func newQuoteAcc() *quoteAcc { return &quoteAcc{per: map[string]*OperatorPrice{}} }

func (a *quoteAcc) add(rows []planned) {
	for _, r := range rows {
		if !r.blocked {
			a.addOne(r)
		}
	}
}

// addOne counts one recipient that is sent and paid for.
func (a *quoteAcc) addOne(r planned) {
	p := a.per[r.op]
	if p == nil {
		p = &OperatorPrice{Operator: r.op}
		a.per[r.op] = p
	}
	p.Recipients++
	p.Parts += int64(r.parts)
	p.Price += r.cost
	if r.text != nil && len(a.preview) < PreviewRows {
		a.preview = append(a.preview, PreviewRow{Mobile: "0" + strings.TrimPrefix(r.mobile, "98"), Text: *r.text,
			Parts: r.parts, Price: r.cost})
	}
}

// fill writes the per-operator table and the totals into q.
func (a *quoteAcc) fill(q *Quote) {
	q.PerOperator = []OperatorPrice{}
	q.Recipients, q.Price, q.TotalParts = 0, 0, 0
	for _, op := range operator.Routes {
		if p := a.per[op]; p != nil {
			q.PerOperator = append(q.PerOperator, *p)
			q.Recipients += p.Recipients
			q.Price += p.Price
			q.TotalParts += p.Parts
		}
	}
	q.Charity = q.Price * operator.CharityPct / 100
	q.Preview = a.preview
}
