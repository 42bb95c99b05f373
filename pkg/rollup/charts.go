package rollup

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/chapar/chapar/internal/platform/db"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/persian"
)

// Days is how many days the dashboard charts cover, today included.
const Days = 30

// Day is one Tehran day of an account's activity. Date is YYYY-MM-DD (Gregorian;
// the panel shows it in Jalali).
type Day struct {
	Date        string `json:"date"`
	Sends       int    `json:"sends"`
	Recipients  int    `json:"recipients"`
	Parts       int64  `json:"parts"`
	Delivered   int    `json:"delivered"`
	Undelivered int    `json:"undelivered"`
	Spend       int64  `json:"spend"`
	Inbound     int    `json:"inbound"`
}

// Operator is one operator's figures over the period. Rate is delivered over
// the recipients handed to the operator, in percent with one decimal.
type Operator struct {
	Code        string  `json:"code"`
	Name        string  `json:"name"`
	Recipients  int     `json:"recipients"`
	Sent        int     `json:"sent"`
	Delivered   int     `json:"delivered"`
	Undelivered int     `json:"undelivered"`
	Rate        float64 `json:"rate"`
}

// Charts is the dashboard's chart data: every day of the period (zeros on a
// quiet day), the operators, and the period's totals.
type Charts struct {
	From      string     `json:"from"`
	To        string     `json:"to"`
	Days      []Day      `json:"days"`
	Operators []Operator `json:"operators"`
	Totals    Day        `json:"totals"`
}

// Reader reads the rollups.
type Reader struct {
	pool db.Querier
	now  func() time.Time
}

// NewReader builds a reader.
func NewReader(pool *pgxpool.Pool) *Reader { return &Reader{pool: pool, now: time.Now} }

// ReadFrom sends the charts' reads through q (db.Reads: a streaming replica
// that has caught up with the primary, else the primary).
func (r *Reader) ReadFrom(q db.Querier) { r.pool = q }

// tehran is the wall clock of the charts' days.
var tehran = persian.Tehran

const qDays = `SELECT day, sends, recipients, parts, delivered, undelivered, spend, inbound
FROM rollup_days WHERE account_id = $1 AND day BETWEEN $2 AND $3`

const qOperators = `SELECT o.operator, coalesce(op.name_fa, o.operator), sum(o.recipients), sum(o.sent), sum(o.delivered), sum(o.undelivered)
FROM rollup_day_ops o LEFT JOIN operators op ON op.code = o.operator
WHERE o.account_id = $1 AND o.day BETWEEN $2 AND $3
GROUP BY o.operator, op.name_fa ORDER BY sum(o.recipients) DESC, o.operator`

// Charts returns the account's last Days days from the rollups.
func (r *Reader) Charts(ctx context.Context, accountID int64) (Charts, error) {
	today := r.now().In(tehran)
	first := today.AddDate(0, 0, -(Days - 1))
	from, to := first.Format(time.DateOnly), today.Format(time.DateOnly)
	c := Charts{From: from, To: to, Days: make([]Day, Days), Operators: []Operator{}}
	for i := range c.Days {
		c.Days[i].Date = first.AddDate(0, 0, i).Format(time.DateOnly)
	}
	if err := r.days(ctx, accountID, from, to, &c); err != nil {
		return Charts{}, err
	}
	if err := r.operators(ctx, accountID, from, to, &c); err != nil {
		return Charts{}, err
	}
	return c, nil
}

func (r *Reader) days(ctx context.Context, accountID int64, from, to string, c *Charts) error {
	rows, err := r.pool.Query(ctx, qDays, accountID, from, to)
	if err != nil {
		return fmt.Errorf("chart days: %w", err)
	}
	index := make(map[string]int, len(c.Days))
	for i, d := range c.Days {
		index[d.Date] = i
	}
	var day time.Time
	var d Day
	_, err = pgx.ForEachRow(rows, []any{&day, &d.Sends, &d.Recipients, &d.Parts, &d.Delivered, &d.Undelivered, &d.Spend, &d.Inbound}, func() error {
		d.Date = day.Format(time.DateOnly)
		if i, ok := index[d.Date]; ok {
			c.Days[i] = d
			c.Totals = addDay(c.Totals, d)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("chart days: %w", err)
	}
	return nil
}

func addDay(t, d Day) Day {
	t.Sends += d.Sends
	t.Recipients += d.Recipients
	t.Parts += d.Parts
	t.Delivered += d.Delivered
	t.Undelivered += d.Undelivered
	t.Spend += d.Spend
	t.Inbound += d.Inbound
	return t
}

func (r *Reader) operators(ctx context.Context, accountID int64, from, to string, c *Charts) error {
	rows, err := r.pool.Query(ctx, qOperators, accountID, from, to)
	if err != nil {
		return fmt.Errorf("chart operators: %w", err)
	}
	var o Operator
	_, err = pgx.ForEachRow(rows, []any{&o.Code, &o.Name, &o.Recipients, &o.Sent, &o.Delivered, &o.Undelivered}, func() error {
		if o.Sent > 0 {
			o.Rate = float64(int64(o.Delivered)*1000/int64(o.Sent)) / 10
		}
		c.Operators = append(c.Operators, o)
		o = Operator{}
		return nil
	})
	if err != nil {
		return fmt.Errorf("chart operators: %w", err)
	}
	sort.SliceStable(c.Operators, func(i, j int) bool { return c.Operators[i].Recipients > c.Operators[j].Recipients })
	return nil
}
