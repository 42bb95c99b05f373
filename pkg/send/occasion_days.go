package send

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
)

// UpcomingRequest asks how many contacts of phonebooks an occasion reaches on the
// coming days (its On is the first of them; empty: today).
type UpcomingRequest struct {
	PhonebookIDs []int64  `json:"phonebook_ids"`
	Occasion     Occasion `json:"occasion"`
}

// OccasionDay is how many contacts an occasion reaches on a run day: the distinct
// numbers whose date falls on it, before the account's lists are applied (the
// quote of that day says how many of them are sent).
type OccasionDay struct {
	// On is the run day, Gregorian YYYY-MM-DD; Jalali the same day in Jalali.
	On     string `json:"on"`
	Jalali string `json:"jalali"`
	// Occasion is the day of the occasion (On plus days_before), in Jalali.
	Occasion string `json:"occasion"`
	Contacts int    `json:"contacts"`
}

// Upcoming is the occasion's next UpcomingDays run days, and the first run day
// within a year that reaches any contact (nil: none does).
type Upcoming struct {
	Days []OccasionDay `json:"days"`
	Next *OccasionDay  `json:"next"`
}

// Upcoming counts the contacts an occasion reaches on each of the coming days and
// finds the next day that reaches any.
func (s *Service) Upcoming(ctx context.Context, accountID int64, in UpcomingRequest) (Upcoming, error) {
	fields := apperr.Fields{}
	ids, err := s.checkPhonebooks(ctx, accountID, in.PhonebookIDs, fields)
	if err != nil {
		return Upcoming{}, err
	}
	o, err := s.checkOccasion(ctx, accountID, Request{Occasion: &in.Occasion}, fields)
	if err != nil {
		return Upcoming{}, err
	}
	if err := fields.Err(); err != nil {
		return Upcoming{}, err
	}
	first := o.day()
	days := make([]time.Time, UpcomingDays)
	for i := range days {
		days[i] = first.AddDate(0, 0, i)
	}
	next, err := s.nextOccasionDay(ctx, accountID, ids, o, first)
	if err != nil {
		return Upcoming{}, err
	}
	if !next.IsZero() {
		days = append(days, next)
	}
	counts, err := s.occasionCounts(ctx, accountID, ids, o, days)
	if err != nil {
		return Upcoming{}, err
	}
	out := Upcoming{Days: counts[:UpcomingDays]}
	if !next.IsZero() {
		out.Next = &counts[len(counts)-1]
	}
	return out, nil
}

// nextOccasionDay is the first run day from first, within a year, whose occasion
// any contact of the phonebooks has (zero: none).
func (s *Service) nextOccasionDay(ctx context.Context, accountID int64, ids []int64, o *Occasion, first time.Time) (time.Time, error) {
	expr, args := o.dateSQL(3)
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT `+expr+` FROM contacts c
		WHERE c.account_id = $1 AND c.phonebook_id = ANY($2::bigint[]) AND `+expr+` IS NOT NULL`,
		append([]any{accountID, ids}, args...)...)
	if err != nil {
		return time.Time{}, fmt.Errorf("occasion dates: %w", err)
	}
	have := map[int]bool{}
	for rows.Next() {
		var md int
		if err := rows.Scan(&md); err != nil {
			rows.Close()
			return time.Time{}, fmt.Errorf("occasion dates: %w", err)
		}
		have[md] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return time.Time{}, fmt.Errorf("occasion dates: %w", err)
	}
	for i := 0; i <= 366 && len(have) > 0; i++ {
		d := first.AddDate(0, 0, i)
		if slices.ContainsFunc(JalaliTargets(d, o.DaysBefore), func(md int) bool { return have[md] }) {
			return d, nil
		}
	}
	return time.Time{}, nil
}

// occasionCounts counts, for each run day, the distinct numbers of the phonebooks
// whose date falls on its occasion.
func (s *Service) occasionCounts(ctx context.Context, accountID int64, ids []int64, o *Occasion, days []time.Time) ([]OccasionDay, error) {
	var idx, mds []int
	out := make([]OccasionDay, len(days))
	for i, d := range days {
		for _, md := range JalaliTargets(d, o.DaysBefore) {
			idx, mds = append(idx, i), append(mds, md)
		}
		out[i] = OccasionDay{On: d.Format(dayLayout), Jalali: jalaliDay(d), Occasion: jalaliDay(d.AddDate(0, 0, o.DaysBefore))}
	}
	expr, args := o.dateSQL(5)
	rows, err := s.pool.Query(ctx, `SELECT d.i, count(DISTINCT c.mobile) FROM contacts c
		JOIN unnest($3::int[], $4::int[]) AS d(i, md) ON `+expr+` = d.md
		WHERE c.account_id = $1 AND c.phonebook_id = ANY($2::bigint[]) GROUP BY d.i`,
		append([]any{accountID, ids, idx, mds}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("occasion counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var i, n int
		if err := rows.Scan(&i, &n); err != nil {
			return nil, fmt.Errorf("occasion counts: %w", err)
		}
		out[i].Contacts = n
	}
	return out, rows.Err()
}

// jalaliDay writes a calendar day in Jalali: 1404/01/01.
func jalaliDay(d time.Time) string {
	j, _ := persian.JalaliDate(d.Format(dayLayout))
	return j
}
