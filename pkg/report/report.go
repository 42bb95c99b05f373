// Package report owns the sending reports: the list of an account's sends (the last
// 30 days, older ones in the archive), a send's counters in the bulk_stats shape, its
// recipients with their public status (spec §4) and the streamed Excel download of
// those recipients. Every query of tenant data is scoped by account id; the one
// unscoped read, StatsByIDs, serves system processes (the live progress pump).
package report

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/sendrules"
	"github.com/chapar/chapar/pkg/validate"
)

// Paging and window limits.
const (
	// Window is how far back the reports list reaches; older sends are the archive.
	Window = 30 * 24 * time.Hour
	// DefaultLimit and MaxLimit bound a page of any list.
	DefaultLimit = 10
	MaxLimit     = 100
	// MaxBulkIDs bounds one by_bulk request.
	MaxBulkIDs = 100
	// MaxRecipientPage is the deepest page of the recipients list; beyond it the
	// Excel download serves the whole send.
	MaxRecipientPage = 1000
)

// Send statuses (sends.status).
const (
	SendScheduled = send.StatusScheduled
	SendQueued    = send.StatusQueued
	SendExpanding = "expanding"
	SendSending   = send.StatusSending
	SendPaused    = send.StatusPaused
	SendDone      = send.StatusDone
	SendStopped   = send.StatusStopped
	SendFailed    = send.StatusFailed
	SendHeld      = send.StatusHeld
	SendBlocked   = send.StatusBlocked
)

// SendStatuses lists every send status a filter may name.
var SendStatuses = []string{SendScheduled, SendQueued, SendExpanding, SendSending, SendPaused, SendHeld, SendDone, SendStopped, SendFailed, SendBlocked}

// Service reads the reports.
type Service struct {
	pool db.Querier
	now  func() time.Time
}

// New builds the service.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool, now: time.Now} }

// ReadFrom sends the service's reads through q (db.Reads: a streaming replica
// that has caught up with the primary, else the primary). Every query of the
// service is a read that nothing writes after.
func (s *Service) ReadFrom(q db.Querier) { s.pool = q }

// Stats is a send's report in the bulk_stats shape (api-contract.md).
//
// Before the send is expanded into recipients its figures are the accepted ones:
// price is the quote, parts is message parts × requested, and pending is the
// requested count (0 once the send is stopped, failed or done without expanding).
// After expansion price is the exact cost, parts the total parts, and pending is
// recipients − delivered − undelivered − rejected, never below 0. The engine counts
// blacklisted numbers apart from recipients (expansion sets recipients to the
// charged ones only), so they are not subtracted again.
type Stats struct {
	ID        int64  `json:"id"`
	AccountID int64  `json:"-"`
	Status    string `json:"status"`
	Sender    string `json:"sender"`
	Type      string `json:"type"`
	// Text is the message; empty (and omitted) in live progress events.
	Text        string `json:"text,omitempty"`
	Requested   int    `json:"requested"`
	Recipients  int    `json:"recipients"`
	Sent        int    `json:"sent"`
	Delivered   int    `json:"delivered"`
	Undelivered int    `json:"undelivered"`
	Blacklisted int    `json:"blacklisted"`
	// OperatorBlocked are the blacklisted recipients left out for their
	// operator's advertising block list (*800#), a part of Blacklisted.
	OperatorBlocked int `json:"operator_blocked"`
	Rejected        int `json:"rejected"`
	// Unpaid counts the recipients dropped at expansion because neither the hold nor
	// the free credit could pay for them (the source grew after pricing): never
	// sent, never charged, each listed as rejected with the reason in its error.
	Unpaid int `json:"unpaid"`
	// Partial counts the recipients sent with a part that was not accepted (its
	// submit_sm_resp lost when a connection dropped, refused by the carrier, or
	// never submitted): at most once, a part is never resent, so the handset may
	// get an incomplete concatenated message.
	Partial int `json:"partial"`
	// Stopped counts the recipients a stop left unsent (also counted in Rejected);
	// a send stopped before its expansion counts all it requested.
	Stopped int `json:"stopped"`
	Pending int `json:"pending"`
	// Parts is the total of message parts of the send; MessageParts those of one message.
	Parts        int64 `json:"parts"`
	MessageParts int   `json:"message_parts"`
	Price        int64 `json:"price"`
	Refunded     int64 `json:"refunded"`
	// Expanded reports whether the recipients exist yet.
	Expanded   bool       `json:"expanded"`
	CreatedAt  time.Time  `json:"created_at"`
	SendAt     *time.Time `json:"send_at"`
	FinishedAt *time.Time `json:"finished_at"`
	StoppedAt  *time.Time `json:"stopped_at"`
	// StoppedBy is the username of the account's user who stopped the send.
	StoppedBy *string `json:"stopped_by"`
	// Paused reports a paused send; Controls (bulk_stats only) lists every pause,
	// resume, stop and reschedule with who did it and when.
	Paused   bool           `json:"paused"`
	Controls []send.Control `json:"controls,omitempty"`
	// ReviewNote is the staff's reason on a send blocked in review.
	ReviewNote string `json:"review_note,omitempty"`
	// Sandbox marks a send of a sandbox API key: never charged, sent only to the
	// simulator's sandbox route (docs/developers.md).
	Sandbox bool `json:"sandbox,omitempty"`
	// WindowResumeAt, on a send paused outside its sending hours, is when it
	// resumes, and WindowNote says so in Persian (docs/sending-rules.md).
	WindowResumeAt *time.Time `json:"window_resume_at,omitempty"`
	WindowNote     string     `json:"window_note,omitempty"`
	// PacePerHour, on a gradual send, is its pace (recipients an hour), PaceEndAt
	// its expected end and PaceNote both in Persian (docs/sending-rules.md).
	PacePerHour *int       `json:"pace_per_hour,omitempty"`
	PaceEndAt   *time.Time `json:"pace_end_at,omitempty"`
	PaceNote    string     `json:"pace_note,omitempty"`
	// Match is, in a list filtered by mobile, that number's recipient in this send.
	Match *Match `json:"match,omitempty"`
}

// MsgWindowPaused begins the note of a send paused outside its sending hours.
const MsgWindowPaused = "ارسال خارج از ساعت مجاز متوقف شد و خودکار ادامه می‌یابد در "

// SendRow is one line of the reports list: the Stats shape with the text cut to its
// first 70 characters.
type SendRow Stats

// Filter narrows the reports list. Zero values mean "no filter"; Page and Limit
// default to 1 and 10, Limit is capped at 100.
type Filter struct {
	Page   int
	Limit  int
	Status string // one of SendStatuses
	Type   string // the send type (quick, file, …); "all" means any
	// Line is the sender number ('' any).
	Line string
	From time.Time
	To   time.Time // exclusive
	// Archive lists the sends older than the 30-day window instead of those inside it.
	Archive bool
	// Mobile (98XXXXXXXXXX, '' any) keeps the sends that had this recipient.
	Mobile string
	// Q ('' any) keeps the sends whose text contains it.
	Q string
}

// List returns one page of the account's sends, newest first, and the total. Without
// Archive the range is clamped to the last 30 days; with it, to before them.
func (s *Service) List(ctx context.Context, accountID int64, f Filter) ([]SendRow, int64, error) {
	f.Page, f.Limit = pageLimit(f.Page, f.Limit)
	if err := f.validate(); err != nil {
		return nil, 0, err
	}
	from, to := f.bounds(s.now())
	where, args := listWhere(f, []any{accountID, from, to, f.Status, f.typeFilter(), f.Line})
	var total int64
	if err := s.pool.QueryRow(ctx, qListCount+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count sends: %w", err)
	}
	rows := []SendRow{}
	if total == 0 || int64(f.Page-1)*int64(f.Limit) >= total {
		return rows, total, nil
	}
	n := len(args)
	page := fmt.Sprintf("%s\nORDER BY s.created_at DESC, s.id DESC\nLIMIT $%d OFFSET $%d", where, n+1, n+2)
	stats, err := s.query(ctx, qList+page, append(args, f.Limit, (f.Page-1)*f.Limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list sends: %w", err)
	}
	if f.Mobile != "" {
		if err := s.matchMobile(ctx, f.Mobile, stats); err != nil {
			return nil, 0, err
		}
	}
	for _, st := range stats {
		rows = append(rows, SendRow(st))
	}
	return rows, total, nil
}

// Stats returns one send of the account. Another account's send is not found.
func (s *Service) Stats(ctx context.Context, accountID, sendID int64) (Stats, error) {
	out, err := s.query(ctx, qStatsOfAccount, accountID, []int64{sendID})
	if err != nil {
		return Stats{}, fmt.Errorf("send stats: %w", err)
	}
	if len(out) == 0 {
		return Stats{}, apperr.ErrNotFound
	}
	st := out[0]
	if st.Controls, err = send.Controls(ctx, s.pool, sendID); err != nil {
		return Stats{}, err
	}
	return st, nil
}

// ByBulk returns the account's sends among ids, in the order asked; ids that are not
// the account's are left out. At most MaxBulkIDs ids.
func (s *Service) ByBulk(ctx context.Context, accountID int64, ids []int64) ([]Stats, error) {
	if len(ids) > MaxBulkIDs {
		return nil, apperr.Field("ids", msgTooManyIDs)
	}
	out := []Stats{}
	if len(ids) == 0 {
		return out, nil
	}
	found, err := s.query(ctx, qStatsOfAccount, accountID, ids)
	if err != nil {
		return nil, fmt.Errorf("bulk stats: %w", err)
	}
	return inOrder(ids, found), nil
}

// StatsByIDs loads the sends among ids of any account, without their text, for the
// live progress pump; AccountID says whose each one is. Never call it with ids taken
// from a request: it is not scoped by account.
func (s *Service) StatsByIDs(ctx context.Context, ids []int64) ([]Stats, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	out, err := s.query(ctx, qStatsByIDs, ids)
	if err != nil {
		return nil, fmt.Errorf("stats by ids: %w", err)
	}
	return out, nil
}

// query runs one of the send selects and derives the report figures.
func (s *Service) query(ctx context.Context, sql string, args ...any) ([]Stats, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, scanStats)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func scanStats(row pgx.CollectableRow) (Stats, error) {
	var (
		st                Stats
		totalParts        int64
		quote, cost       int64
		requested, recips int
	)
	err := row.Scan(&st.ID, &st.AccountID, &st.Status, &st.Sender, &st.Type, &st.Text,
		&requested, &recips, &st.Sent, &st.Delivered, &st.Undelivered, &st.Blacklisted, &st.Rejected, &st.Unpaid, &st.Partial, &st.Stopped,
		&st.OperatorBlocked, &st.MessageParts, &totalParts, &quote, &cost, &st.Refunded, &st.Expanded,
		&st.CreatedAt, &st.SendAt, &st.FinishedAt, &st.StoppedAt, &st.StoppedBy, &st.ReviewNote, &st.Sandbox, &st.WindowResumeAt,
		&st.PacePerHour, &st.PaceEndAt)
	if err != nil {
		return Stats{}, err
	}
	st.Requested, st.Recipients = requested, recips
	st.Paused = st.Status == SendPaused
	if st.WindowResumeAt != nil {
		st.WindowNote = MsgWindowPaused + sendrules.PersianTime(*st.WindowResumeAt)
	}
	if st.PacePerHour != nil && st.PaceEndAt != nil {
		st.PaceNote = send.GradualNote(*st.PacePerHour, *st.PaceEndAt)
	}
	if st.Expanded {
		st.Price, st.Parts = cost, totalParts
		st.Pending = max(0, recips-st.Delivered-st.Undelivered-st.Rejected)
	} else {
		st.Price, st.Parts = quote, int64(st.MessageParts)*int64(requested)
		st.Pending = requested
		if final(st.Status) {
			st.Pending = 0
		}
		if st.Status == SendStopped {
			st.Stopped = requested
		}
	}
	return st, nil
}

func final(status string) bool {
	return status == SendDone || status == SendStopped || status == SendFailed || status == SendBlocked
}

// inOrder returns found in the order of ids, each once.
func inOrder(ids []int64, found []Stats) []Stats {
	byID := make(map[int64]Stats, len(found))
	for _, st := range found {
		byID[st.ID] = st
	}
	out := make([]Stats, 0, len(found))
	for _, id := range ids {
		if st, ok := byID[id]; ok {
			out = append(out, st)
			delete(byID, id)
		}
	}
	return out
}

// pageLimit puts a page and its size within bounds (the page at most
// validate.MaxPage, so that its offset cannot overflow).
func pageLimit(page, limit int) (int, int) {
	if page <= 0 {
		page = 1
	}
	page = min(page, validate.MaxPage)
	if limit <= 0 {
		limit = DefaultLimit
	}
	return page, min(limit, MaxLimit)
}

func (f Filter) validate() error {
	errs := apperr.Fields{}
	if f.Status != "" && !validStatus(f.Status) {
		errs.Add("status", msgStatus)
	}
	if f.Type != "" && !validType(f.Type) {
		errs.Add("type", msgType)
	}
	if f.Line != "" && !validLine(f.Line) {
		errs.Add("line", msgLine)
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		errs.Add("from", msgRange)
	}
	return errs.Err()
}

// validLine accepts a sender number: 3 to 20 digits.
func validLine(s string) bool {
	if len(s) < 3 || len(s) > 20 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (f Filter) typeFilter() string {
	if f.Type == "all" {
		return ""
	}
	return f.Type
}

// bounds is the created_at range [from, to) of the list at now.
func (f Filter) bounds(now time.Time) (time.Time, time.Time) {
	cutoff := now.Add(-Window)
	from, to := f.From, f.To
	if f.Archive {
		if to.IsZero() || to.After(cutoff) {
			to = cutoff
		}
		if from.IsZero() {
			from = time.Unix(0, 0)
		}
		return from, to
	}
	if from.Before(cutoff) {
		from = cutoff
	}
	if to.IsZero() {
		to = now.Add(24 * time.Hour) // nothing is created in the future; a margin for clock skew
	}
	return from, to
}

func validStatus(s string) bool {
	for _, v := range SendStatuses {
		if s == v {
			return true
		}
	}
	return false
}

// validType accepts the spec's type names: lower-case Latin letters, digits and _.
func validType(s string) bool {
	if len(s) > 40 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}
