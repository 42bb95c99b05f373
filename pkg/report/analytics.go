package report

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

// CurvePoints is how many points the delivery curve of a send has at most.
const CurvePoints = 24

// Analytics is the per-send analysis of the report details page: the
// delivery curve over time, the delivery rate per operator and why recipients
// were not delivered. It reads the recipients of that one send (its batch
// index), never another send's.
type Analytics struct {
	SendID    int64             `json:"send_id"`
	Curve     []CurvePoint      `json:"curve"`
	Operators []OperatorOutcome `json:"operators"`
	Reasons   []Reason          `json:"reasons"`
}

// CurvePoint is how many recipients were final (delivered or not) by At, counted
// from the send's start.
type CurvePoint struct {
	At          time.Time `json:"at"`
	Delivered   int       `json:"delivered"`
	Undelivered int       `json:"undelivered"`
}

// OperatorOutcome is one operator's share of a send. Rate is delivered over
// those handed to the operator (sent), in percent with one decimal.
type OperatorOutcome struct {
	Operator    string  `json:"operator"`
	Name        string  `json:"name"`
	Recipients  int     `json:"recipients"`
	Sent        int     `json:"sent"`
	Delivered   int     `json:"delivered"`
	Undelivered int     `json:"undelivered"`
	Rejected    int     `json:"rejected"`
	Rate        float64 `json:"rate"`
}

// Reason is one cause of recipients not delivered, with its count.
type Reason struct {
	Status int    `json:"status"`
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// qOutcomes groups a send's recipients by operator, status and error.
const qOutcomes = `SELECT operator, status, CASE WHEN status IN (3, 4, 6) THEN error ELSE '' END, count(*)
FROM recipients_history WHERE send_id = $1 GROUP BY 1, 2, 3`

// qCurve buckets a send's final recipients by done_at into CurvePoints steps
// between the send's start and its last final recipient.
const qCurve = `WITH r AS (SELECT status, done_at FROM recipients_history WHERE send_id = $1 AND status IN (2, 3) AND done_at IS NOT NULL),
b AS (SELECT (SELECT coalesce(expanded_at, created_at) FROM sends WHERE id = $1) AS lo, max(done_at) AS hi FROM r)
SELECT least(width_bucket(extract(epoch FROM r.done_at), extract(epoch FROM b.lo), extract(epoch FROM b.hi) + 0.001, $2), $2),
       count(*) FILTER (WHERE r.status = 2), count(*) FILTER (WHERE r.status = 3), b.lo, b.hi
FROM r, b GROUP BY 1, b.lo, b.hi ORDER BY 1`

// SendAnalytics returns the analysis of the account's send.
func (s *Service) SendAnalytics(ctx context.Context, accountID, sendID int64) (Analytics, error) {
	if err := s.owned(ctx, accountID, sendID); err != nil {
		return Analytics{}, err
	}
	names, err := s.operatorNames(ctx)
	if err != nil {
		return Analytics{}, err
	}
	a := Analytics{SendID: sendID}
	if a.Operators, a.Reasons, err = s.outcomes(ctx, sendID, names); err != nil {
		return Analytics{}, err
	}
	if a.Curve, err = s.curve(ctx, sendID); err != nil {
		return Analytics{}, err
	}
	return a, nil
}

// outcomes reads the per-operator figures and the reasons, most frequent first.
func (s *Service) outcomes(ctx context.Context, sendID int64, names map[string]string) ([]OperatorOutcome, []Reason, error) {
	rows, err := s.pool.Query(ctx, qOutcomes, sendID)
	if err != nil {
		return nil, nil, fmt.Errorf("send outcomes: %w", err)
	}
	ops := map[string]*OperatorOutcome{}
	reasons := map[Reason]int{}
	var op, reason string
	var status int16
	var n int
	_, err = pgx.ForEachRow(rows, []any{&op, &status, &reason, &n}, func() error {
		o := ops[op]
		if o == nil {
			o = &OperatorOutcome{Operator: op, Name: names[op]}
			ops[op] = o
		}
		addOutcome(o, int(status), n)
		if status == 3 || status == 4 || status == 6 {
			reasons[Reason{Status: int(status), Reason: reasonWord(int(status), reason)}] += n
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("send outcomes: %w", err)
	}
	return sortedOperators(ops), sortedReasons(reasons), nil
}

// addOutcome counts n recipients of a status into an operator's figures.
func addOutcome(o *OperatorOutcome, status, n int) {
	o.Recipients += n
	switch status {
	case 0, 1:
		o.Sent += n
	case 2:
		o.Sent += n
		o.Delivered += n
	case 3:
		o.Sent += n
		o.Undelivered += n
	case 6:
		o.Rejected += n
	}
}

// reasonWord is the Persian reason of a stored status (3, 4 or 6) and error.
func reasonWord(status int, reason string) string {
	if status == internalRejected && reason == "" {
		return reasonRejected
	}
	return ReasonText(status, reason)
}

func sortedOperators(ops map[string]*OperatorOutcome) []OperatorOutcome {
	out := make([]OperatorOutcome, 0, len(ops))
	for _, o := range ops {
		if o.Sent > 0 {
			o.Rate = float64(o.Delivered*1000/o.Sent) / 10
		}
		out = append(out, *o)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Recipients != out[j].Recipients {
			return out[i].Recipients > out[j].Recipients
		}
		return out[i].Operator < out[j].Operator
	})
	return out
}

func sortedReasons(m map[Reason]int) []Reason {
	out := make([]Reason, 0, len(m))
	for r, n := range m {
		r.Count = n
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Reason < out[j].Reason
	})
	return out
}

// curve reads the cumulative delivery curve: one point at the start, then one
// per non-empty step, each the totals up to the end of that step.
func (s *Service) curve(ctx context.Context, sendID int64) ([]CurvePoint, error) {
	rows, err := s.pool.Query(ctx, qCurve, sendID, CurvePoints)
	if err != nil {
		return nil, fmt.Errorf("delivery curve: %w", err)
	}
	out := []CurvePoint{}
	var k, d, u int
	var lo, hi time.Time
	var cd, cu int
	_, err = pgx.ForEachRow(rows, []any{&k, &d, &u, &lo, &hi}, func() error {
		if len(out) == 0 {
			out = append(out, CurvePoint{At: lo})
		}
		cd, cu = cd+d, cu+u
		step := hi.Sub(lo) / CurvePoints
		at := lo.Add(step * time.Duration(k))
		if at.After(hi) || k == CurvePoints {
			at = hi
		}
		out = append(out, CurvePoint{At: at, Delivered: cd, Undelivered: cu})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("delivery curve: %w", err)
	}
	return out, nil
}
