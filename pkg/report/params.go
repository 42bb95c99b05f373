package report

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of the report errors.
const (
	msgStatus          = "وضعیت انتخاب‌شده معتبر نیست"
	msgType            = "نوع پیامک معتبر نیست"
	msgLine            = "شماره خط معتبر نیست"
	msgFrom            = "تاریخ شروع معتبر نیست"
	msgTo              = "تاریخ پایان معتبر نیست"
	msgTime            = "تاریخ معتبر نیست"
	msgRange           = "تاریخ شروع باید پیش از تاریخ پایان باشد"
	msgID              = "شناسه ارسال معتبر نیست"
	msgIDs             = "فهرست شناسه‌های ارسال معتبر نیست"
	msgTooManyIDs      = "حداکثر ۱۰۰ شناسه در هر درخواست مجاز است"
	msgRecipientStatus = "وضعیت گیرنده معتبر نیست"
	msgDeepPage        = "برای دیدن همه گیرندگان، فایل اکسل گزارش را دریافت کنید"
	msgMobile          = "شماره موبایل معتبر نیست؛ مثلا ۰۹۱۲۱۲۳۴۵۶۷"
	msgQ               = "متن جستجو حداکثر ۲۰۰ نویسه باشد"
)

// ParseFilter reads the list filters of a query string: page, limit, status, type,
// line, mobile (any form: 0912…, 912…, +98912…, Persian digits), q (a piece of the
// text), from and to. Dates are RFC 3339 or Tehran wall-clock times (2006-01-02,
// 2006-01-02 15:04[:05], also with / and Persian digits); a date alone as "to" means
// the end of that day.
func ParseFilter(q url.Values) (Filter, error) {
	pg, err := validate.ParsePaging(q, DefaultLimit, MaxLimit)
	if err != nil {
		return Filter{}, err
	}
	f := Filter{Page: pg.Page, Limit: pg.Limit}
	errs := apperr.Fields{}
	f.Status = strings.TrimSpace(q.Get("status"))
	f.Type = strings.TrimSpace(q.Get("type"))
	f.Line = strings.TrimSpace(validate.ToLatinDigits(q.Get("line")))
	f.From, f.To = ParseRange(RangeParam(q, "from"), RangeParam(q, "to"), "from", "to", errs)
	if v := strings.TrimSpace(q.Get("mobile")); v != "" {
		m, ok := validate.NormalizeMobile(v)
		if !ok {
			errs.Add("mobile", msgMobile)
		}
		f.Mobile = m
	}
	f.Q = strings.TrimSpace(q.Get("q"))
	if utf8.RuneCountInString(f.Q) > MaxQ {
		errs.Add("q", msgQ)
	}
	if err := errs.Err(); err != nil {
		return Filter{}, err
	}
	return f, f.validate()
}

// RecipientQuery is the parsed query of the recipients list.
type RecipientQuery struct {
	SendID int64
	Status *int
	// Mobile (98XXXXXXXXXX, '' none) looks up one recipient of the send.
	Mobile string
	Page   int
	Limit  int
}

// ParseRecipientQuery reads id, status, mobile (any form), page and limit of the
// recipients list.
func ParseRecipientQuery(q url.Values) (RecipientQuery, error) {
	pg, err := validate.ParsePaging(q, DefaultLimit, MaxLimit)
	if err != nil {
		return RecipientQuery{}, err
	}
	rq := RecipientQuery{Page: pg.Page, Limit: pg.Limit}
	errs := apperr.Fields{}
	if rq.SendID, err = ParseID(q.Get("id")); err != nil {
		errs.Add("id", msgID)
	}
	if v := strings.TrimSpace(validate.ToLatinDigits(q.Get("status"))); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < StatusSent || n > StatusBlacklisted {
			errs.Add("status", msgRecipientStatus)
		} else {
			rq.Status = &n
		}
	}
	if v := strings.TrimSpace(q.Get("mobile")); v != "" {
		m, ok := validate.NormalizeMobile(v)
		if !ok {
			errs.Add("mobile", msgMobile)
		}
		rq.Mobile = m
	}
	if err := errs.Err(); err != nil {
		return RecipientQuery{}, err
	}
	return rq, nil
}

// RangeParam reads a range bound: from (to), else the panel's date_from (date_to).
func RangeParam(q url.Values, key string) string {
	if v := q.Get(key); v != "" {
		return v
	}
	return q.Get("date_" + key)
}

// ParseID reads a send id; anything but a positive integer is a 422 on "id".
func ParseID(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(validate.ToLatinDigits(s)), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.Field("id", msgID)
	}
	return id, nil
}

// ParseIDs reads a comma-separated list of send ids (duplicates dropped, order
// kept), at most MaxBulkIDs of them.
func ParseIDs(s string) ([]int64, error) {
	s = strings.TrimSpace(validate.ToLatinDigits(s))
	if s == "" {
		return nil, apperr.Field("ids", msgIDs)
	}
	parts := strings.Split(strings.ReplaceAll(s, "،", ","), ",")
	if len(parts) > MaxBulkIDs {
		return nil, apperr.Field("ids", msgTooManyIDs)
	}
	seen := make(map[int64]bool, len(parts))
	ids := make([]int64, 0, len(parts))
	for _, p := range parts {
		id, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || id <= 0 {
			return nil, apperr.Field("ids", msgIDs)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// tehran is the wall clock of the reports (dates without a zone, the Excel file).
var tehran = persian.Tehran

var wallLayouts = []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02T15:04"}

// ParseRange reads a date range as [from, to) (Tehran days, Jalali or Gregorian, as
// ParseTime): an unreadable bound is added to errs under its key, and a range whose
// start is not before its end gets the range message under fromKey.
func ParseRange(rawFrom, rawTo, fromKey, toKey string, errs apperr.Fields) (from, to time.Time) {
	from, errFrom := ParseTime(rawFrom, false)
	if errFrom != nil {
		errs.Add(fromKey, msgFrom)
	}
	to, errTo := ParseTime(rawTo, true)
	if errTo != nil {
		errs.Add(toKey, msgTo)
	}
	if errFrom == nil && errTo == nil && !from.IsZero() && !to.IsZero() && !from.Before(to) {
		errs.Add(fromKey, msgRange)
	}
	return from, to
}

// ParseTime reads a time bound; empty is the zero time. A bare date is the start
// of that day in Tehran, or the start of the next day when end is set.
func ParseTime(s string, end bool) (time.Time, error) {
	s = strings.ReplaceAll(strings.TrimSpace(validate.ToLatinDigits(s)), "/", "-")
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseInLocation("2006-01-02", s, tehran); err == nil {
		if end {
			d = d.AddDate(0, 0, 1)
		}
		return d, nil
	}
	for _, layout := range wallLayouts {
		if t, err := time.ParseInLocation(layout, s, tehran); err == nil {
			return t, nil
		}
	}
	return time.Time{}, apperr.New(apperr.Invalid, msgTime)
}
