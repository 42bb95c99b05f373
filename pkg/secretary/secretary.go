// Package secretary owns the secretaries (spec §3, §7 Secretary): the received-message
// secretary, which answers every message a line receives (or those with its
// keywords) and may add the sender to a phonebook, and the keyword readers —
// contest, poll, feedback, gift and visit — which answer the messages that start
// with their keywords. A reader is reviewed by staff (pkg/review) before it
// answers; it stops at its expiry or when disabled. Messages are matched inside
// the inbox's store transaction (answer.go), so each is answered exactly once;
// the replies leave in batches as normal, charged sends of the reply types
// (reply.go). docs/inbox-secretaries.md describes it end to end.
package secretary

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/plan"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/sms"
	"github.com/chapar/chapar/pkg/validate"
)

// Kinds of readers.
const (
	KindSecretary = "secretary"
	KindContest   = "contest"
	KindPoll      = "poll"
	KindFeedback  = "feedback"
	KindGift      = "gift"
	KindVisit     = "visit"
)

// Statuses of a reader.
const (
	StatusPending  = "pending"
	StatusActive   = "active"
	StatusDisabled = "disabled"
	StatusRejected = "rejected"
)

// ReviewKind is the back office queue of readers.
const ReviewKind = "reader"

// Persian messages of the reader forms.
const (
	MsgKind        = "نوع منشی معتبر نیست"
	MsgTitle       = "عنوان را وارد کنید (حداکثر ۱۰۰ کاراکتر)"
	MsgLine        = "خط دریافت را از خطوط حساب انتخاب کنید"
	MsgKeywords    = "حداقل یک کلمه کلیدی وارد کنید"
	MsgKeywordLong = "هر کلمه کلیدی حداکثر ۵۰ کاراکتر و حداکثر ۲۰ کلمه"
	MsgReply       = "متن پاسخ را وارد کنید"
	MsgReplyLong   = "متن پاسخ بیش از حد مجاز است"
	MsgAnswer      = "پاسخ درست مسابقه را وارد کنید"
	MsgOptions     = "نظرسنجی باید بین ۲ تا ۲۰ گزینه با عنوان داشته باشد"
	MsgExpiry      = "تاریخ پایان باید در آینده باشد"
	MsgPhonebook   = "گروه انتخاب‌شده پیدا نشد"
	MsgNotEditable = "منشی ردشده یا در انتظار بررسی را نمی‌توان فعال یا غیرفعال کرد"
	MsgLineTaken   = "روی این خط منشی دیگری بدون کلمه کلیدی فعال است"
)

// Option is one answer of a poll, chosen by its number (from 1) or a keyword.
type Option struct {
	Title    string   `json:"title"`
	Keywords []string `json:"keywords"`
}

// Input is the form of a secretary or keyword reader.
type Input struct {
	ID          int64      `json:"id"`
	Kind        string     `json:"kind"`
	Title       string     `json:"title"`
	Line        string     `json:"line"`
	Keywords    []string   `json:"keywords"`
	Reply       string     `json:"reply"`
	ReplyWrong  string     `json:"reply_wrong"`
	ReplyRepeat string     `json:"reply_repeat"`
	Answer      string     `json:"answer"`
	Options     []Option   `json:"options"`
	Changeable  bool       `json:"changeable"`
	PhonebookID int64      `json:"phonebook_id"`
	ExpiresAt   *time.Time `json:"expires_at"`
}

// Reader is a stored secretary or keyword reader with its counts.
type Reader struct {
	Input
	Status       string    `json:"status"`
	Reason       string    `json:"reason"`
	CreatedAt    time.Time `json:"created_at"`
	Entries      int64     `json:"entries"`
	Participants int64     `json:"participants"`
	CodesFree    int64     `json:"codes_free"`
	CodesGiven   int64     `json:"codes_given"`
	Expired      bool      `json:"expired"`
}

// Service manages readers and answers messages.
type Service struct {
	pool  *pgxpool.Pool
	sends *send.Service
	now   func() time.Time
}

// New returns the reader service; sends delivers the replies (the worker's).
func New(pool *pgxpool.Pool, sends *send.Service) *Service {
	return &Service{pool: pool, sends: sends, now: time.Now}
}

// SendType is the send type a reader's replies are recorded as (spec §3).
func SendType(kind string) string {
	switch kind {
	case KindSecretary:
		return send.TypeSecretary
	case KindPoll:
		return send.TypePolls
	case KindContest:
		return send.TypeMatches
	case KindFeedback:
		return send.TypeIdea
	}
	return send.TypeReader
}

// normalizeInput trims the form, normalises keywords, the answer and the poll
// options for matching, and reports the form errors.
func normalizeInput(in *Input, now time.Time) apperr.Fields {
	f := apperr.Fields{}
	in.Title = strings.TrimSpace(in.Title)
	in.Line = strings.TrimSpace(validate.ToLatinDigits(in.Line))
	switch in.Kind {
	case KindSecretary, KindContest, KindPoll, KindFeedback, KindGift, KindVisit:
	default:
		f.Add("kind", MsgKind)
	}
	if in.Title == "" || len([]rune(in.Title)) > 100 {
		f.Add("title", MsgTitle)
	}
	var ok bool
	if in.Keywords, ok = keywords(in.Keywords); !ok {
		f.Add("keywords", MsgKeywordLong)
	} else if len(in.Keywords) == 0 && in.Kind != KindSecretary {
		f.Add("keywords", MsgKeywords)
	}
	for field, text := range map[string]*string{"reply": &in.Reply, "reply_wrong": &in.ReplyWrong, "reply_repeat": &in.ReplyRepeat} {
		*text = strings.TrimSpace(*text)
		if sms.CheckLength(*text) != nil {
			f.Add(field, MsgReplyLong)
		}
	}
	if in.Reply == "" {
		f.Add("reply", MsgReply)
	}
	in.Answer = inbox.Normalize(in.Answer)
	if in.Kind == KindContest && in.Answer == "" {
		f.Add("answer", MsgAnswer)
	}
	if in.Kind == KindPoll && !options(in.Options) {
		f.Add("options", MsgOptions)
	}
	if in.Kind != KindPoll {
		in.Options = nil
	}
	if in.ExpiresAt != nil && !in.ExpiresAt.After(now) {
		f.Add("expires_at", MsgExpiry)
	}
	return f
}

func keywords(in []string) ([]string, bool) {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, k := range in {
		k = inbox.Normalize(k)
		if k == "" || seen[k] {
			continue
		}
		if len([]rune(k)) > 50 {
			return nil, false
		}
		seen[k] = true
		out = append(out, k)
	}
	return out, len(out) <= 20
}

func options(opts []Option) bool {
	if len(opts) < 2 || len(opts) > 20 {
		return false
	}
	for i := range opts {
		opts[i].Title = strings.TrimSpace(opts[i].Title)
		kw, ok := keywords(opts[i].Keywords)
		if opts[i].Title == "" || !ok {
			return false
		}
		opts[i].Keywords = kw
	}
	return true
}

// check validates the form against the account: its line and phonebook.
func (s *Service) check(ctx context.Context, accountID int64, in *Input) error {
	f := normalizeInput(in, s.now())
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM lines WHERE account_id = $1 AND number = $2`, accountID, in.Line).Scan(&n); err != nil {
		return fmt.Errorf("check line: %w", err)
	}
	if n == 0 {
		f.Add("line", MsgLine)
	}
	if in.Kind != KindSecretary {
		in.PhonebookID = 0
	}
	if in.PhonebookID != 0 {
		if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM phonebooks WHERE account_id = $1 AND id = $2`,
			accountID, in.PhonebookID).Scan(&n); err != nil {
			return fmt.Errorf("check phonebook: %w", err)
		}
		if n == 0 {
			f.Add("phonebook_id", MsgPhonebook)
		}
	}
	return f.Err()
}

const readerCols = `r.id, r.kind, r.title, r.line, r.keywords, r.reply, r.reply_wrong, r.reply_repeat, r.answer, r.options,
	r.changeable, coalesce(r.phonebook_id, 0), r.expires_at, r.status, r.reason, r.created_at,
	(SELECT count(*) FROM reader_entries e WHERE e.reader_id = r.id),
	(SELECT count(*) FROM reader_participants p WHERE p.reader_id = r.id),
	(SELECT count(*) FROM reader_codes c WHERE c.reader_id = r.id AND c.sender IS NULL),
	(SELECT count(*) FROM reader_codes c WHERE c.reader_id = r.id AND c.sender IS NOT NULL)`

func scanReader(row pgx.CollectableRow) (Reader, error) {
	var r Reader
	var opts []byte
	err := row.Scan(&r.ID, &r.Kind, &r.Title, &r.Line, &r.Keywords, &r.Reply, &r.ReplyWrong, &r.ReplyRepeat, &r.Answer, &opts,
		&r.Changeable, &r.PhonebookID, &r.ExpiresAt, &r.Status, &r.Reason, &r.CreatedAt, &r.Entries, &r.Participants,
		&r.CodesFree, &r.CodesGiven)
	if err == nil {
		err = json.Unmarshal(opts, &r.Options)
	}
	r.Expired = r.ExpiresAt != nil && !r.ExpiresAt.After(time.Now())
	return r, err
}

// Get returns one of the account's readers.
func (s *Service) Get(ctx context.Context, id acl.Identity, readerID int64) (Reader, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+readerCols+` FROM readers r WHERE r.account_id = $1 AND r.id = $2`, id.AccountID, readerID)
	if err != nil {
		return Reader{}, fmt.Errorf("read reader: %w", err)
	}
	r, err := pgx.CollectExactlyOneRow(rows, scanReader)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, apperr.ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("read reader: %w", err)
	}
	return r, nil
}

// List returns a page of the account's readers of a kind: KindSecretary, "keywords"
// (every keyword reader) or "all".
func (s *Service) List(ctx context.Context, id acl.Identity, kind string, p validate.Paging) ([]Reader, int64, error) {
	where := `r.account_id = $1 AND CASE $2 WHEN 'all' THEN true WHEN 'keywords' THEN r.kind <> 'secretary' ELSE r.kind = $2 END`
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM readers r WHERE `+where, id.AccountID, kind).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count readers: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+readerCols+` FROM readers r WHERE `+where+` ORDER BY r.id DESC LIMIT $3 OFFSET $4`,
		id.AccountID, kind, p.Limit, (p.Page-1)*p.Limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list readers: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanReader)
	if err != nil {
		return nil, 0, fmt.Errorf("list readers: %w", err)
	}
	return out, total, nil
}

// Create stores a reader and sends it to staff review; it answers once approved.
func (s *Service) Create(ctx context.Context, id acl.Identity, in Input, ip string) (Reader, error) {
	if err := plan.CheckService(ctx, s.pool, id.AccountID, planService(in.Kind)); err != nil {
		return Reader{}, err
	}
	if err := s.check(ctx, id.AccountID, &in); err != nil {
		return Reader{}, err
	}
	opts, _ := json.Marshal(orEmpty(in.Options))
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO readers (account_id, kind, title, line, keywords, reply, reply_wrong, reply_repeat,
			answer, options, changeable, phonebook_id, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, nullif($12, 0), $13)
			RETURNING id`, id.AccountID, in.Kind, in.Title, in.Line, in.Keywords, in.Reply, in.ReplyWrong, in.ReplyRepeat,
			in.Answer, opts, in.Changeable, in.PhonebookID, in.ExpiresAt).Scan(&in.ID)
		if err != nil {
			return fmt.Errorf("insert reader: %w", err)
		}
		return s.submit(ctx, tx, id, in, ip, audit.ReaderCreate)
	})
	if err != nil {
		return Reader{}, err
	}
	return s.Get(ctx, id, in.ID)
}

// Update changes a reader; the changed texts go to review again (it stops
// answering until approved).
func (s *Service) Update(ctx context.Context, id acl.Identity, in Input, ip string) (Reader, error) {
	if _, err := s.Get(ctx, id, in.ID); err != nil {
		return Reader{}, err
	}
	if err := s.check(ctx, id.AccountID, &in); err != nil {
		return Reader{}, err
	}
	opts, _ := json.Marshal(orEmpty(in.Options))
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE readers SET title = $3, line = $4, keywords = $5, reply = $6, reply_wrong = $7,
			reply_repeat = $8, answer = $9, options = $10, changeable = $11, phonebook_id = nullif($12, 0), expires_at = $13,
			status = 'pending', reason = '', updated_at = now() WHERE account_id = $1 AND id = $2 AND kind = $14`,
			id.AccountID, in.ID, in.Title, in.Line, in.Keywords, in.Reply, in.ReplyWrong, in.ReplyRepeat, in.Answer, opts,
			in.Changeable, in.PhonebookID, in.ExpiresAt, in.Kind)
		if err != nil {
			return fmt.Errorf("update reader: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound
		}
		return s.submit(ctx, tx, id, in, ip, audit.ReaderUpdate)
	})
	if err != nil {
		return Reader{}, err
	}
	return s.Get(ctx, id, in.ID)
}

func orEmpty(o []Option) []Option {
	if o == nil {
		return []Option{}
	}
	return o
}

// submit queues the reader for review and audits the change, in tx.
func (s *Service) submit(ctx context.Context, tx pgx.Tx, id acl.Identity, in Input, ip, action string) error {
	summary := in.Title + " — " + in.Reply
	if err := review.Submit(ctx, tx, ReviewKind, id.AccountID, in.ID, []string{kindTitle(in.Kind)}, summary); err != nil {
		return err
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID, Action: action,
		TargetType: "reader", Target: strconv.FormatInt(in.ID, 10), IP: ip, Details: map[string]any{"kind": in.Kind, "title": in.Title}})
}

func kindTitle(kind string) string {
	return map[string]string{KindSecretary: "منشی پیام دریافتی", KindContest: "مسابقه", KindPoll: "نظرسنجی",
		KindFeedback: "انتقادات و پیشنهادات", KindGift: "کد هدیه", KindVisit: "ثبت مراجعه"}[kind]
}

// Toggle activates or disables an approved reader.
func (s *Service) Toggle(ctx context.Context, id acl.Identity, readerID int64, active bool, ip string) (Reader, error) {
	to, from := StatusDisabled, StatusActive
	if active {
		to, from = StatusActive, StatusDisabled
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, `SELECT status FROM readers WHERE account_id = $1 AND id = $2 FOR UPDATE`, id.AccountID, readerID).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("lock reader: %w", err)
		}
		if status != from && status != to {
			return apperr.New(apperr.Conflict, MsgNotEditable).WithCode("not-approved")
		}
		if _, err := tx.Exec(ctx, `UPDATE readers SET status = $2, updated_at = now() WHERE id = $1`, readerID, to); err != nil {
			return fmt.Errorf("toggle reader: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID, Action: audit.ReaderToggle,
			TargetType: "reader", Target: strconv.FormatInt(readerID, 10), IP: ip, Details: map[string]any{"status": to}})
	})
	if err != nil {
		return Reader{}, err
	}
	return s.Get(ctx, id, readerID)
}

// Delete removes the account's readers (their entries, votes and codes with them).
func (s *Service) Delete(ctx context.Context, id acl.Identity, ids []int64, ip string) (int, error) {
	if len(ids) == 0 {
		return 0, apperr.Field("ids", inbox.MsgIDs)
	}
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM readers WHERE account_id = $1 AND id = ANY($2) RETURNING id`, id.AccountID, ids)
		if err != nil {
			return fmt.Errorf("delete readers: %w", err)
		}
		deleted, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return fmt.Errorf("delete readers: %w", err)
		}
		n = len(deleted)
		for _, rid := range deleted {
			if err := review.Withdraw(ctx, tx, ReviewKind, rid); err != nil {
				return err
			}
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID, Action: audit.ReaderDelete,
			TargetType: "reader", IP: ip, Details: map[string]any{"ids": deleted}})
	})
	return n, err
}

// planService is the plan service a reader of a kind needs: the secretary, or the
// keyword reader for every other kind.
func planService(kind string) string {
	if kind == KindSecretary {
		return plan.ServiceSecretary
	}
	return plan.ServiceKeyword
}
