package send

import (
	"context"
	"fmt"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/operator"
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
)

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
	Parts       int             `json:"parts"`
	Encoding    string          `json:"encoding"`
	Characters  int             `json:"characters"`
	CharsLeft   int             `json:"chars_left"`
	Cancel11    bool            `json:"cancel11"`
	Requested   int             `json:"requested"`
	Recipients  int             `json:"recipients"`
	Duplicates  int             `json:"duplicates"`
	Blacklisted int             `json:"blacklisted"`
	Price       int64           `json:"price"`
	Charity     int64           `json:"charity"`
	PerOperator []OperatorPrice `json:"per_operator"`
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
	var bad []string
	for _, r := range raw {
		m, ok := validate.NormalizeMobile(r)
		if !ok {
			if len(bad) < 10 {
				bad = append(bad, strings.TrimSpace(r))
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
		return nil, 0, apperr.Field("numbers", MsgBadNumbers+": "+strings.Join(bad, "، "))
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

// blocked returns the numbers on the account's send blacklist or cancel-11 list.
func blocked(ctx context.Context, pool operator.Querier, accountID int64, numbers []string) (map[string]bool, error) {
	out := map[string]bool{}
	if accountID == 0 || len(numbers) == 0 {
		return out, nil
	}
	rows, err := pool.Query(ctx, `SELECT DISTINCT mobile FROM blacklist WHERE account_id = $1
		AND kind IN ('send', 'cancel11') AND mobile = ANY($2)`, accountID, numbers)
	if err != nil {
		return nil, fmt.Errorf("blacklist lookup: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, fmt.Errorf("blacklist lookup: %w", err)
		}
		out[m] = true
	}
	return out, rows.Err()
}

// price builds the quote of one text to a set of unique numbers.
func price(tbl *operator.Table, st sms.Stats, cancel11 bool, numbers []string, blocked map[string]bool) Quote {
	q := Quote{Parts: st.Parts, Encoding: st.Encoding.String(), Characters: st.Characters, CharsLeft: st.CharsLeft,
		Cancel11: cancel11}
	per := map[string]*OperatorPrice{}
	for _, m := range numbers {
		if blocked[m] {
			q.Blacklisted++
			continue
		}
		op := tbl.Classify(m)
		p := per[op]
		if p == nil {
			p = &OperatorPrice{Operator: op}
			per[op] = p
		}
		p.Recipients++
		p.Parts += int64(st.Parts)
		p.Price += tbl.Price(op, st.Parts)
	}
	q.PerOperator = []OperatorPrice{}
	for _, op := range operator.Codes {
		if p := per[op]; p != nil {
			q.PerOperator = append(q.PerOperator, *p)
			q.Recipients += p.Recipients
			q.Price += p.Price
		}
	}
	q.Charity = q.Price * operator.CharityPct / 100
	return q
}
