// Package campaign owns recurring campaigns: a stored send request and a schedule
// (daily, weekly, monthly on Jalali days, or a cron expression, in Tehran time).
// RunDue, called every second by the worker, turns each due run into a normal send
// through the send service; a run that cannot be accepted (no credit, an empty
// phonebook…) is recorded as failed and announced with a campaign.failed event, and
// a run that cannot be tried now (rate limit, database error) waits without holding
// up any other campaign.
package campaign

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/send"
)

// Persian messages of campaigns.
const (
	MsgTitle = "عنوان کمپین را وارد کنید (حداکثر ۱۰۰ نویسه)"
)

// Notify publishes an event to an account's live clients.
type Notify func(ctx context.Context, accountID int64, event string, data any)

// Service stores campaigns and runs them.
type Service struct {
	pool   *pgxpool.Pool
	sends  *send.Service
	notify Notify
	// Now is the clock (tests run a fast one).
	Now func() time.Time
}

// New returns the campaign service; notify may be nil.
func New(pool *pgxpool.Pool, sends *send.Service, notify Notify) *Service {
	return &Service{pool: pool, sends: sends, notify: notify, Now: time.Now}
}

// Input creates or updates a campaign: a title, the send request (its send_at is
// ignored: the schedule says when) and the schedule.
type Input struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	send.Request
	Schedule Schedule `json:"schedule"`
	Enabled  *bool    `json:"enabled"`
}

// request is the send request stored on the campaign: without a time or an
// occasion's day (each run has its own).
func (in Input) request() send.Request {
	r := in.Request
	r.SendAt = nil
	if r.Occasion != nil {
		o := *r.Occasion
		o.On = ""
		r.Occasion = &o
	}
	return r
}

// Source is where a campaign's recipients come from.
type Source struct {
	Numbers      []string `json:"numbers,omitempty"`
	FileID       int64    `json:"file_id,omitempty"`
	PhonebookIDs []int64  `json:"phonebook_ids,omitempty"`
}

// Campaign is a stored recurring campaign.
type Campaign struct {
	ID       int64  `json:"id"`
	Title    string `json:"title"`
	Type     string `json:"type"`
	Sender   string `json:"sender"`
	Text     string `json:"text"`
	Cancel11 *bool  `json:"cancel11"`
	Source   Source `json:"source"`
	// Gradual, when set, is the pace of each run (docs/sending-rules.md).
	Gradual *send.Gradual `json:"gradual,omitempty"`
	// Occasion, when set, makes it an occasion campaign (occasion.go).
	Occasion   *send.Occasion `json:"occasion,omitempty"`
	Schedule   Schedule       `json:"schedule"`
	Enabled    bool           `json:"enabled"`
	NextRunAt  *time.Time     `json:"next_run_at"`
	LastRunAt  *time.Time     `json:"last_run_at"`
	Runs       int            `json:"runs"`
	FailedRuns int            `json:"failed_runs"`
	CreatedAt  time.Time      `json:"created_at"`
	// LastRun is the newest run with what it sent (List fills it).
	LastRun *LastRun `json:"last_run,omitempty"`
}

// Run is one run of a campaign.
type Run struct {
	At     time.Time `json:"at"`
	SendID *int64    `json:"send_id"`
	Status string    `json:"status"`
	Error  string    `json:"error"`
}

const cols = `id, title, request, schedule, enabled, next_run_at, last_run_at, runs, failed_runs, created_at`

func scan(r pgx.CollectableRow) (Campaign, error) {
	var c Campaign
	var req send.Request
	err := r.Scan(&c.ID, &c.Title, &req, &c.Schedule, &c.Enabled, &c.NextRunAt, &c.LastRunAt, &c.Runs, &c.FailedRuns, &c.CreatedAt)
	c.Type, c.Sender, c.Text, c.Cancel11 = req.Type, req.Sender, req.Text, req.Cancel11
	c.Source = Source{Numbers: req.Numbers, FileID: req.FileID, PhonebookIDs: req.PhonebookIDs}
	c.Gradual, c.Occasion = req.Gradual, req.Occasion
	return c, err
}

// validate checks the title, the schedule and the send request (priced, not sent).
func (s *Service) validate(ctx context.Context, id acl.Identity, in *Input) error {
	f := apperr.Fields{}
	in.Title = strings.TrimSpace(in.Title)
	if in.Title == "" || utf8.RuneCountInString(in.Title) > 100 {
		f.Add("title", MsgTitle)
	}
	var runs []time.Time
	if err := in.Schedule.Validate(s.Now()); err != nil {
		fe, _ := apperr.As(err)
		for k, v := range fe.Fields {
			f[k] = v
		}
	} else {
		runs = in.Schedule.Runs(s.Now())
	}
	if in.Occasion != nil && in.Schedule.Kind != Daily {
		f.Add("schedule.kind", MsgOccasionDaily)
	}
	if _, err := s.sends.QuoteRuns(ctx, id, in.request(), runs, in.Schedule.timeField()); err != nil {
		fe, ok := apperr.As(err)
		if !ok || fe.Kind != apperr.Invalid {
			return err
		}
		if fe.Code == send.CodeOutsideHours && len(f) == 0 {
			return err // the next allowed time goes with it
		}
		for k, v := range fe.Fields {
			f[k] = v
		}
	}
	return f.Err()
}

// Create stores a new campaign, enabled unless asked otherwise.
func (s *Service) Create(ctx context.Context, id acl.Identity, in Input) (Campaign, error) {
	if err := s.validate(ctx, id, &in); err != nil {
		return Campaign{}, err
	}
	enabled := in.Enabled == nil || *in.Enabled
	next, err := s.nextRun(in.Schedule, enabled, time.Time{})
	if err != nil {
		return Campaign{}, err
	}
	// The campaign keeps the identity it was made with: its runs act as that user,
	// API key and sandbox flag (runAs).
	rows, err := s.pool.Query(ctx, `INSERT INTO campaigns (account_id, user_id, title, request, schedule, enabled, next_run_at,
		api_key_id, sandbox) VALUES ($1, nullif($2, 0), $3, $4, $5, $6, $7, nullif($8, 0), $9) RETURNING `+cols,
		id.AccountID, id.UserID, in.Title, in.request(), in.Schedule, enabled, next, id.APIKeyID, id.Sandbox)
	if err != nil {
		return Campaign{}, fmt.Errorf("create campaign: %w", err)
	}
	c, err := pgx.CollectExactlyOneRow(rows, scan)
	return s.audited(ctx, audit.CampaignCreate, id.AccountID, nil, c, err)
}

// Update replaces a campaign's title, request and schedule; from then on it runs as
// the editor (their user, API key and sandbox flag), who wrote what it sends.
func (s *Service) Update(ctx context.Context, id acl.Identity, in Input) (Campaign, error) {
	if err := s.validate(ctx, id, &in); err != nil {
		return Campaign{}, err
	}
	cur, err := s.Get(ctx, id.AccountID, in.ID)
	if err != nil {
		return Campaign{}, err
	}
	enabled := cur.Enabled
	if in.Enabled != nil {
		enabled = *in.Enabled
	}
	after, err := s.notBefore(ctx, id.AccountID, in.ID, in.Occasion != nil)
	if err != nil {
		return Campaign{}, err
	}
	next, err := s.nextRun(in.Schedule, enabled, after)
	if err != nil {
		return Campaign{}, err
	}
	// The editor wrote the request that runs now: the campaign runs as them.
	c, err := s.one(ctx, `UPDATE campaigns SET title = $3, request = $4, schedule = $5, enabled = $6, next_run_at = $7,
		retry_at = NULL, user_id = nullif($8, 0), api_key_id = nullif($9, 0), sandbox = $10, updated_at = now()
		WHERE account_id = $1 AND id = $2 RETURNING `+cols,
		id.AccountID, in.ID, in.Title, in.request(), in.Schedule, enabled, next, id.UserID, id.APIKeyID, id.Sandbox)
	return s.audited(ctx, audit.CampaignUpdate, id.AccountID, &cur, c, err)
}

// Toggle enables or disables a campaign; enabling plans the next run from now.
func (s *Service) Toggle(ctx context.Context, accountID, campaignID int64, enabled bool) (Campaign, error) {
	cur, err := s.Get(ctx, accountID, campaignID)
	if err != nil {
		return Campaign{}, err
	}
	after, err := s.notBefore(ctx, accountID, campaignID, cur.Occasion != nil)
	if err != nil {
		return Campaign{}, err
	}
	next, err := s.nextRun(cur.Schedule, enabled, after)
	if err != nil {
		return Campaign{}, err
	}
	c, err := s.one(ctx, `UPDATE campaigns SET enabled = $3, next_run_at = $4, retry_at = NULL, updated_at = now()
		WHERE account_id = $1 AND id = $2 RETURNING `+cols, accountID, campaignID, enabled, next)
	return s.audited(ctx, audit.CampaignToggle, accountID, &cur, c, err)
}

// Delete removes a campaign (its past sends stay in the reports).
func (s *Service) Delete(ctx context.Context, accountID, campaignID int64) error {
	var title string
	err := s.pool.QueryRow(ctx, `DELETE FROM campaigns WHERE account_id = $1 AND id = $2 RETURNING title`,
		accountID, campaignID).Scan(&title)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("delete campaign: %w", err)
	}
	_, err = s.audited(ctx, audit.CampaignDelete, accountID, &Campaign{ID: campaignID, Title: title}, Campaign{}, nil)
	return err
}

// audited records a campaign change in the audit log right after it (the change
// is a single statement, so there is no transaction to share): the title and
// enabled flag before and after.
func (s *Service) audited(ctx context.Context, action string, accountID int64, before *Campaign, after Campaign, err error) (Campaign, error) {
	if err != nil {
		return after, err
	}
	e := audit.Entry{AccountID: accountID, Action: action, Target: strconv.FormatInt(after.ID, 10)}
	if before != nil {
		e.Target = strconv.FormatInt(before.ID, 10)
		e.Before = map[string]any{"title": before.Title, "enabled": before.Enabled}
	}
	if after.ID != 0 {
		e.After = map[string]any{"title": after.Title, "enabled": after.Enabled}
	}
	audit.Committed(ctx, s.pool, e)
	return after, nil
}

// Get returns one of the account's campaigns.
func (s *Service) Get(ctx context.Context, accountID, campaignID int64) (Campaign, error) {
	return s.one(ctx, `SELECT `+cols+` FROM campaigns WHERE account_id = $1 AND id = $2`, accountID, campaignID)
}

func (s *Service) one(ctx context.Context, sql string, args ...any) (Campaign, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return Campaign{}, fmt.Errorf("campaign: %w", err)
	}
	c, err := pgx.CollectExactlyOneRow(rows, scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return Campaign{}, apperr.ErrNotFound
	}
	if err != nil {
		return Campaign{}, fmt.Errorf("campaign: %w", err)
	}
	return c, nil
}

// List kinds: occasion campaigns, the other recurring campaigns, or both ("").
const (
	KindOccasion  = "occasion"
	KindRecurring = "recurring"
)

// MsgListKind refuses an unknown kind of campaign list.
const MsgListKind = "نوع فهرست کمپین‌ها معتبر نیست (occasion یا recurring)"

// kindFilter is the condition of a list kind.
var kindFilter = map[string]string{
	"":            "",
	KindOccasion:  " AND request ? 'occasion'",
	KindRecurring: " AND NOT request ? 'occasion'",
}

// List returns a page of the account's campaigns of a kind, newest first, each
// with its last run.
func (s *Service) List(ctx context.Context, accountID int64, kind string, page, limit int) ([]Campaign, int64, error) {
	filter, ok := kindFilter[kind]
	if !ok {
		return nil, 0, apperr.Field("kind", MsgListKind)
	}
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM campaigns WHERE account_id = $1`+filter, accountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count campaigns: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+cols+` FROM campaigns WHERE account_id = $1`+filter+` ORDER BY id DESC LIMIT $2 OFFSET $3`,
		accountID, limit, (page-1)*limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list campaigns: %w", err)
	}
	out, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, 0, fmt.Errorf("list campaigns: %w", err)
	}
	return out, total, s.lastRuns(ctx, out)
}

// Runs lists a campaign's runs, newest first (at most 200).
func (s *Service) Runs(ctx context.Context, accountID, campaignID int64) ([]Run, error) {
	if _, err := s.Get(ctx, accountID, campaignID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT due_at, send_id, status, error FROM campaign_runs WHERE campaign_id = $1
		ORDER BY due_at DESC LIMIT 200`, campaignID)
	if err != nil {
		return nil, fmt.Errorf("campaign runs: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Run, error) {
		var x Run
		err := r.Scan(&x.At, &x.SendID, &x.Status, &x.Error)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("campaign runs: %w", err)
	}
	return out, nil
}

// nextRun plans an enabled campaign's first run, not before after (zero: from
// now); enabling a campaign stored before the schedule rules is refused when its
// schedule breaks them.
func (s *Service) nextRun(sc Schedule, enabled bool, after time.Time) (*time.Time, error) {
	if !enabled {
		return nil, nil
	}
	now := s.Now()
	if err := sc.Validate(now); err != nil {
		return nil, err
	}
	next, err := sc.Next(later(now, after))
	if err != nil {
		return nil, apperr.Field("schedule", MsgKind)
	}
	return &next, nil
}

// userMessage is the Persian text of a refused run.
func userMessage(fe *apperr.Error) string {
	for _, v := range fe.Fields {
		if len(v) > 0 {
			return v[0]
		}
	}
	return fe.Message
}
