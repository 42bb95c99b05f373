package send

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/sendrules"
)

// Gradual sends (docs/sending-rules.md): a send whose recipients are released
// at a pace, N an hour (or a minute), or evenly until a time, counting only
// the open sending hours. The pace is stored on the send (pace_per_hour); the
// gateway releases no more than the pace allows (pkg/gateway pace.go) and the
// rest stays queued, so pause, resume, stop and refunds work as for any send.
// When nothing more is due the gateway ends the batch and notes when the next
// allotment is (pace_wait_until); ResumePaced enqueues the batches again then.

// Gradual asks for a gradual send: exactly one of PerHour, PerMinute or Until.
type Gradual struct {
	PerHour   int        `json:"per_hour,omitempty"`
	PerMinute int        `json:"per_minute,omitempty"`
	Until     *time.Time `json:"until,omitempty"`
}

// GradualInfo is the pace of a gradual send in a quote: recipients an hour
// and the expected end (Tehran time, only the open sending hours counted).
type GradualInfo struct {
	PerHour      int       `json:"per_hour"`
	EstimatedEnd time.Time `json:"estimated_end"`
	Note         string    `json:"note"`
}

// Bounds of a gradual send's pace.
const (
	MinPacePerHour   = 10
	MaxPacePerHour   = 500_000
	MaxPacePerMinute = MaxPacePerHour / 60
	// MaxGradualSpan is how far ahead a gradual send's end (until) may be.
	MaxGradualSpan = 7 * 24 * time.Hour
)

// Persian texts of gradual sends.
const (
	MsgGradualOne      = "برای ارسال تدریجی فقط یکی از «تعداد در ساعت»، «تعداد در دقیقه» یا «تا ساعت» را بدهید"
	MsgGradualPerHour  = "تعداد در ساعت ارسال تدریجی باید بین ۱۰ و ۵۰۰٬۰۰۰ باشد"
	MsgGradualPerMin   = "تعداد در دقیقه ارسال تدریجی باید بین ۱ و ۸٬۳۳۳ باشد"
	MsgGradualFastLane = "ارسال تدریجی برای کد یکبارمصرف و پیامک‌های فوری ممکن نیست؛ این ارسال‌ها همیشه بی‌درنگ می‌روند"
	MsgGradualUntil    = "زمان پایان ارسال تدریجی باید بعد از زمان شروع ارسال باشد"
	MsgGradualFar      = "زمان پایان ارسال تدریجی حداکثر تا یک هفته بعد از شروع ارسال ممکن است"
	MsgGradualWindow   = "زمان پایان ارسال تدریجی باید در همان بازه ساعت مجاز ارسال (%s) باشد"
	MsgGradualCampaign = "برای کارزار تکرارشونده، سرعت ارسال تدریجی را با تعداد در ساعت یا در دقیقه بدهید"
	msgGradualNote     = "ارسال تدریجی: %s در ساعت، پایان تقریبی %s"
)

// checkGradual checks a gradual request's form (fields get its errors).
func checkGradual(g *Gradual, typ string, fields apperr.Fields) {
	if g == nil {
		return
	}
	set := 0
	for _, on := range []bool{g.PerHour != 0, g.PerMinute != 0, g.Until != nil} {
		if on {
			set++
		}
	}
	switch {
	case IsCritical(typ):
		fields.Add("gradual", MsgGradualFastLane)
	case set != 1:
		fields.Add("gradual", MsgGradualOne)
	case g.PerHour != 0 && (g.PerHour < MinPacePerHour || g.PerHour > MaxPacePerHour):
		fields.Add("gradual.per_hour", MsgGradualPerHour)
	case g.PerMinute != 0 && (g.PerMinute < 1 || g.PerMinute > MaxPacePerMinute):
		fields.Add("gradual.per_minute", MsgGradualPerMin)
	}
}

// paceOf is a checked request's pace and expected end from its start (its
// send_at, else now) within its sending hours; zero without gradual.
func (s *Service) paceOf(ctx context.Context, accountID int64, r Request, p prepared) (*GradualInfo, error) {
	g := r.Gradual
	if g == nil {
		return nil, nil
	}
	start := s.now()
	if r.SendAt != nil {
		start = *r.SendAt
	}
	d, _, err := s.decide(ctx, accountID, r, p.line.Kind, p.quote, start)
	if err != nil {
		return nil, err
	}
	w := d.Window
	start = w.Next(start)
	n := max(p.quote.Recipients, 1)
	info := &GradualInfo{PerHour: g.PerHour}
	switch {
	case g.PerMinute > 0:
		info.PerHour = g.PerMinute * 60
	case g.Until != nil:
		if info.PerHour, err = untilPace(w, start, *g.Until, n); err != nil {
			return nil, err
		}
	}
	spread := time.Duration(float64(n) / float64(info.PerHour) * float64(time.Hour))
	info.EstimatedEnd = w.Finish(start, spread).Truncate(time.Second)
	info.Note = GradualNote(info.PerHour, info.EstimatedEnd)
	return info, nil
}

// untilPace is the pace that spreads n recipients evenly from start to until,
// both within one stretch of the window w.
func untilPace(w sendrules.Window, start, until time.Time, n int) (int, error) {
	span := until.Sub(start)
	switch {
	case span < time.Minute:
		return 0, apperr.Field("gradual.until", MsgGradualUntil)
	case span > MaxGradualSpan:
		return 0, apperr.Field("gradual.until", MsgGradualFar)
	case w.Between(start, until) < span:
		return 0, apperr.Field("gradual.until", fmt.Sprintf(MsgGradualWindow, w.Persian()))
	}
	secs := int64(span / time.Second)
	return max(int((int64(n)*3600+secs-1)/secs), 1), nil
}

// GradualNote is the Persian line of a gradual send's pace and expected end.
func GradualNote(perHour int, end time.Time) string {
	return fmt.Sprintf(msgGradualNote, persian.Digits(fmt.Sprint(perHour)), sendrules.PersianTime(end))
}

// quoteGradual adds a gradual request's pace to its quote; a campaign
// (runs) may not name an end time.
func (s *Service) quoteGradual(ctx context.Context, accountID int64, r Request, p prepared, q *Quote, campaign bool) error {
	if r.Gradual == nil {
		return nil
	}
	if campaign && r.Gradual.Until != nil {
		return apperr.Field("gradual.until", MsgGradualCampaign)
	}
	p.quote = *q
	info, err := s.paceOf(ctx, accountID, r, p)
	q.Gradual = info
	return err
}

// ResumePaced enqueues again the batches of the gradual sends whose next
// allotment is due by the service's clock. The worker runs it every second.
func (s *Service) ResumePaced(ctx context.Context) (int, error) {
	rows, err := s.pool.Query(ctx, `UPDATE sends SET pace_wait_until = NULL
		WHERE id IN (SELECT id FROM sends WHERE pace_wait_until <= $1
			ORDER BY pace_wait_until LIMIT 100 FOR NO KEY UPDATE SKIP LOCKED)
		RETURNING id, expanded_at IS NOT NULL, status IN ('queued', 'sending')`, s.now())
	if err != nil {
		return 0, fmt.Errorf("release gradual sends: %w", err)
	}
	type due struct {
		id               int64
		expanded, active bool
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (due, error) {
		var d due
		err := r.Scan(&d.id, &d.expanded, &d.active)
		return d, err
	})
	if err != nil {
		return 0, fmt.Errorf("release gradual sends: %w", err)
	}
	n := 0
	for _, d := range out {
		if !d.active {
			continue
		}
		n++
		if err := s.requeue(ctx, d.id, d.expanded); err != nil {
			slog.WarnContext(ctx, "gradual send: not re-enqueued; the sweeper will", "send", d.id, "err", err)
		}
	}
	return n, nil
}

// perHour and end are the columns of a send's pace (NULL without one).
func (g *GradualInfo) perHour() *int {
	if g == nil {
		return nil
	}
	return &g.PerHour
}

func (g *GradualInfo) end() *time.Time {
	if g == nil {
		return nil
	}
	return &g.EstimatedEnd
}
