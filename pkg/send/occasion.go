package send

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// Occasion messages («پیام مناسبتی», docs/campaigns.md): a phonebook send may be
// limited to the contacts whose date — the birth date or a custom feature of type
// date — falls, by its Jalali month and day, on the send's day (or DaysBefore days
// after it). Jalali anniversaries, not Gregorian: Nowruz moves between 20 and 21
// March. A date of Esfand 30 (leap years only) is celebrated on Esfand 29 in a common
// year. The filter is SQL (jalali_md, migration 0170), so the quote, the expansion
// and the day counts read the same contacts.

// OccasionBirthDate is the occasion field of the contacts' birth date; a date
// feature is "feature:<id>".
const OccasionBirthDate = "birth_date"

// MaxDaysBefore is how many days before its occasion a message may go.
const MaxDaysBefore = 30

// UpcomingDays is how many run days Upcoming counts.
const UpcomingDays = 7

// CodeNothingToSend is the message_code of a send that leaves no recipient (every
// number on a list, or no contact with the occasion that day).
const CodeNothingToSend = "nothing-to-send"

// Persian messages of occasions.
const (
	MsgOccasionField = "تاریخ مناسبت را انتخاب کنید: تاریخ تولد یا یکی از ویژگی‌های تاریخ مخاطبان"
	MsgOccasionDays  = "تعداد روزهای پیش از مناسبت باید از ۰ تا ۳۰ باشد"
	MsgOccasionOn    = "روز ارسال را به شکل YYYY-MM-DD (میلادی) وارد کنید"
	MsgOccasionType  = "پیام مناسبتی فقط برای ارسال از دفترچه تلفن است"
	MsgNoOccasion    = "هیچ مخاطبی از دفترچه‌های انتخاب‌شده در این روز مناسبتی ندارد"
)

// dayLayout is a calendar day.
const dayLayout = "2006-01-02"

// Occasion limits a phonebook send to the contacts whose date falls on its day.
type Occasion struct {
	// Field is OccasionBirthDate or "feature:<id>" (a date feature).
	Field string `json:"field"`
	// DaysBefore: the message goes this many days before the occasion (0: on the day).
	DaysBefore int `json:"days_before"`
	// On is the run day, Gregorian YYYY-MM-DD in Tehran; empty: the day of the
	// send's send_at, else today. A campaign run sets its scheduled day.
	On string `json:"on,omitempty"`
}

// JalaliTargets returns the Jalali dates (month*100 + day) whose contacts an
// occasion reaches on a run day (a calendar day): those of the day daysBefore days
// later, plus Esfand 30 when that day is Esfand 29 of a common year.
func JalaliTargets(day time.Time, daysBefore int) []int {
	t := time.Date(day.Year(), day.Month(), day.Day()+daysBefore, 12, 0, 0, 0, time.UTC)
	_, m, d := persian.GregorianToJalali(t.Year(), int(t.Month()), t.Day())
	out := []int{m*100 + d}
	if m == 12 && d == 29 {
		n := t.AddDate(0, 0, 1)
		if _, nm, _ := persian.GregorianToJalali(n.Year(), int(n.Month()), n.Day()); nm == 1 {
			out = append(out, 1230)
		}
	}
	return out
}

// day is the occasion's run day (checked at accept).
func (o *Occasion) day() time.Time {
	d, _ := time.Parse(dayLayout, o.On)
	return d
}

// dateSQL is the Jalali month/day of the occasion's date of contact c; a feature's
// id comes from the parameter $n (args holds it).
func (o *Occasion) dateSQL(n int) (expr string, args []any) {
	if id, ok := strings.CutPrefix(o.Field, "feature:"); ok {
		return fmt.Sprintf("jalali_md_text(c.features->>($%d::text))", n), []any{id}
	}
	return "jalali_md(c.birth_date)", nil
}

// filterSQL is the condition " AND …" on contacts c of the occasion's run day, its
// values from the parameters $n on.
func (o *Occasion) filterSQL(n int) (string, []any) {
	expr, args := o.dateSQL(n)
	args = append(args, JalaliTargets(o.day(), o.DaysBefore))
	return fmt.Sprintf(" AND %s = ANY($%d::int[])", expr, n+len(args)-1), args
}

// checkOccasion checks a phonebook send's occasion and resolves its run day.
func (s *Service) checkOccasion(ctx context.Context, accountID int64, r Request, fields apperr.Fields) (*Occasion, error) {
	o := *r.Occasion
	o.Field = strings.TrimSpace(o.Field)
	ok, err := isDateField(ctx, s.pool, accountID, o.Field)
	if err != nil {
		return nil, err
	}
	if !ok {
		fields.Add("occasion.field", MsgOccasionField)
	}
	if o.DaysBefore < 0 || o.DaysBefore > MaxDaysBefore {
		fields.Add("occasion.days_before", MsgOccasionDays)
	}
	if o.On == "" {
		at := s.now()
		if r.SendAt != nil {
			at = *r.SendAt
		}
		o.On = at.In(persian.Tehran).Format(dayLayout)
	} else if d, err := time.Parse(dayLayout, validate.NormalizeDigits(strings.TrimSpace(o.On))); err != nil || d.Year() < 1900 {
		fields.Add("occasion.on", MsgOccasionOn)
	} else {
		o.On = d.Format(dayLayout)
	}
	return &o, nil
}

// isDateField reports whether field names a date of the account's contacts: the
// birth date or one of its date features.
func isDateField(ctx context.Context, q operator.Querier, accountID int64, field string) (bool, error) {
	if field == OccasionBirthDate {
		return true, nil
	}
	raw, ok := strings.CutPrefix(field, "feature:")
	id, err := strconv.ParseInt(raw, 10, 64)
	if !ok || err != nil || id <= 0 {
		return false, nil
	}
	rows, err := q.Query(ctx, `SELECT 1 FROM contact_features WHERE account_id = $1 AND id = $2 AND type = 'date'`, accountID, id)
	if err != nil {
		return false, fmt.Errorf("occasion field: %w", err)
	}
	found := rows.Next()
	rows.Close()
	return found, rows.Err()
}

// nothingToSend refuses a send that leaves no recipient: for an occasion with no
// contact on its day, it says so.
func nothingToSend(p prepared) error {
	msg := MsgNothingToSend
	if p.src.Occasion != nil && p.quote.Requested == 0 {
		msg = MsgNoOccasion
	}
	return apperr.Field(sourceField(p.typ), msg).WithCode(CodeNothingToSend)
}
