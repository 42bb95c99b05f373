// Package review is the back office's review queues. A queue is data (rows of
// review_items, one per subject under review) plus a small Handler interface that
// the reviewed feature implements: sends held by moderation today, and patterns,
// secretaries, documents, mobile changes and offline payments as they arrive. Staff
// approve or reject an item with a reason; the handler applies the decision to its
// subject in the same transaction, and the decision is audited on the customer's
// account.
package review

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Item statuses.
const (
	Pending  = "pending"
	Approved = "approved"
	Rejected = "rejected"
)

// Persian messages of the review queues.
const (
	MsgReasonRequired = "دلیل رد را وارد کنید"
	MsgReasonLong     = "دلیل رد حداکثر ۵۰۰ کاراکتر است"
	MsgDecided        = "این مورد قبلا بررسی شده است"
	MsgUnknownQueue   = "صف بررسی معتبر نیست"
	MsgBadStatus      = "وضعیت معتبر نیست"
)

// Item is one subject waiting for (or past) review.
type Item struct {
	ID          int64      `json:"id"`
	Kind        string     `json:"kind"`
	AccountID   int64      `json:"account_id"`
	AccountName string     `json:"account_name"`
	SubjectID   int64      `json:"subject_id"`
	Status      string     `json:"status"`
	Reasons     []string   `json:"reasons"`
	Summary     string     `json:"summary"`
	Decision    string     `json:"decision"`
	DecidedBy   string     `json:"decided_by,omitempty"`
	DecidedAt   *time.Time `json:"decided_at,omitempty"`
	CreatedAt   time.Time  `json:"created_at"`
}

// Decision is a staff member's verdict on an item.
type Decision struct {
	Approve bool
	Reason  string
	Staff   acl.Identity
	IP      string
}

// Handler is what a feature plugs into the back office for its queue.
type Handler interface {
	// Kind names the queue (review_items.kind).
	Kind() string
	// Title is the queue's Persian name in the back office menu.
	Title() string
	// Decide applies the decision to the item's subject inside tx. The returned
	// function, when not nil, runs once tx is committed (e.g. to enqueue work).
	Decide(ctx context.Context, tx pgx.Tx, it Item, d Decision) (after func(context.Context), err error)
}

// Querier is a transaction or pool that items are submitted in.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Submit puts a subject into its queue inside the feature's own transaction.
// Submitting a subject already pending changes nothing.
func Submit(ctx context.Context, q Querier, kind string, accountID, subjectID int64, reasons []string, summary string) error {
	if reasons == nil {
		reasons = []string{}
	}
	_, err := q.Exec(ctx, `INSERT INTO review_items (kind, account_id, subject_id, reasons, summary)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (kind, subject_id) WHERE status = 'pending' DO NOTHING`,
		kind, accountID, subjectID, reasons, trim(summary, 300))
	if err != nil {
		return fmt.Errorf("submit %s %d for review: %w", kind, subjectID, err)
	}
	return nil
}

// Withdraw takes a subject out of its queue when its owner cancelled it before
// review (nothing is left for staff to decide).
func Withdraw(ctx context.Context, q Querier, kind string, subjectID int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM review_items WHERE kind = $1 AND subject_id = $2 AND status = 'pending'`,
		kind, subjectID); err != nil {
		return fmt.Errorf("withdraw %s %d from review: %w", kind, subjectID, err)
	}
	return nil
}

// Queues holds the registered handlers and serves the back office.
type Queues struct {
	pool     *pgxpool.Pool
	handlers map[string]Handler
	order    []string
}

// New returns an empty set of queues.
func New(pool *pgxpool.Pool) *Queues {
	return &Queues{pool: pool, handlers: map[string]Handler{}}
}

// Register adds a feature's queue; registering a kind twice panics (a wiring bug).
func (q *Queues) Register(h Handler) {
	if _, dup := q.handlers[h.Kind()]; dup {
		panic("review: queue registered twice: " + h.Kind())
	}
	q.handlers[h.Kind()] = h
	q.order = append(q.order, h.Kind())
}

// Queue is one queue in the back office menu.
type Queue struct {
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Pending int    `json:"pending"`
}

// Queues lists the registered queues with their pending counts.
func (q *Queues) Queues(ctx context.Context) ([]Queue, error) {
	counts := map[string]int{}
	rows, err := q.pool.Query(ctx, `SELECT kind, count(*) FROM review_items WHERE status = 'pending' GROUP BY kind`)
	if err != nil {
		return nil, fmt.Errorf("review counts: %w", err)
	}
	var kind string
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&kind, &n}, func() error { counts[kind] = n; return nil }); err != nil {
		return nil, fmt.Errorf("review counts: %w", err)
	}
	out := make([]Queue, 0, len(q.order))
	for _, k := range q.order {
		out = append(out, Queue{Kind: k, Title: q.handlers[k].Title(), Pending: counts[k]})
	}
	return out, nil
}

// Filter selects the items of a list.
type Filter struct {
	Kind   string
	Status string
	Page   validate.Paging
}

// List returns one page of items, oldest pending first, and the total.
func (q *Queues) List(ctx context.Context, f Filter) ([]Item, int64, error) {
	if f.Kind != "" && q.handlers[f.Kind] == nil {
		return nil, 0, apperr.Field("kind", MsgUnknownQueue)
	}
	if f.Status == "" {
		f.Status = Pending
	}
	if !slices.Contains([]string{Pending, Approved, Rejected}, f.Status) {
		return nil, 0, apperr.Field("status", MsgBadStatus)
	}
	order := "i.id"
	if f.Status != Pending {
		order = "i.decided_at DESC, i.id DESC"
	}
	rows, err := q.pool.Query(ctx, `SELECT `+itemColumns+`, count(*) OVER ()
		FROM review_items i JOIN accounts a ON a.id = i.account_id LEFT JOIN users u ON u.id = i.decided_by
		WHERE i.status = $1 AND ($2 = '' OR i.kind = $2) ORDER BY `+order+` LIMIT $3 OFFSET $4`,
		f.Status, f.Kind, f.Page.Limit, f.Page.Offset())
	if err != nil {
		return nil, 0, fmt.Errorf("review list: %w", err)
	}
	var total int64
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Item, error) {
		var it Item
		err := r.Scan(append(itemDest(&it), &total)...)
		return it, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("review list: %w", err)
	}
	return items, total, nil
}

const itemColumns = `i.id, i.kind, i.account_id, a.name, i.subject_id, i.status, i.reasons, i.summary, i.decision,
	coalesce(u.username, ''), i.decided_at, i.created_at`

func itemDest(it *Item) []any {
	return []any{&it.ID, &it.Kind, &it.AccountID, &it.AccountName, &it.SubjectID, &it.Status, &it.Reasons, &it.Summary,
		&it.Decision, &it.DecidedBy, &it.DecidedAt, &it.CreatedAt}
}

// Decide approves or rejects a pending item: its handler applies the decision to
// the subject, the item records it, and the audit log of the customer's account
// shows it — all in one transaction.
func (q *Queues) Decide(ctx context.Context, itemID int64, d Decision) (Item, error) {
	d.Reason = strings.TrimSpace(d.Reason)
	if err := checkReason(d); err != nil {
		return Item{}, err
	}
	var it Item
	var after func(context.Context)
	err := pgx.BeginFunc(ctx, q.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT `+itemColumns+` FROM review_items i JOIN accounts a ON a.id = i.account_id
			LEFT JOIN users u ON u.id = i.decided_by WHERE i.id = $1 FOR UPDATE OF i`, itemID).Scan(itemDest(&it)...)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("lock review item: %w", err)
		}
		h := q.handlers[it.Kind]
		if h == nil {
			return apperr.ErrNotFound
		}
		if it.Status != Pending {
			return apperr.New(apperr.Conflict, MsgDecided).WithCode("review-decided")
		}
		if after, err = h.Decide(ctx, tx, it, d); err != nil {
			return err
		}
		return q.record(ctx, tx, &it, d)
	})
	if err != nil {
		return Item{}, err
	}
	if after != nil {
		after(ctx)
	}
	return it, nil
}

// record stores the decision on the item and audits it on the customer's account.
func (q *Queues) record(ctx context.Context, tx pgx.Tx, it *Item, d Decision) error {
	it.Status, it.Decision, it.DecidedBy = Rejected, d.Reason, d.Staff.Username
	if d.Approve {
		it.Status = Approved
	}
	if err := tx.QueryRow(ctx, `UPDATE review_items SET status = $2, decision = $3, decided_by = nullif($4, 0), decided_at = now()
		WHERE id = $1 RETURNING decided_at`, it.ID, it.Status, it.Decision, d.Staff.UserID).Scan(&it.DecidedAt); err != nil {
		return fmt.Errorf("record review decision: %w", err)
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: it.AccountID, UserID: d.Staff.UserID, Action: "review." + it.Status,
		Target: it.Kind + ":" + strconv.FormatInt(it.SubjectID, 10), IP: d.IP,
		Details: map[string]any{"staff": d.Staff.Username, "reason": d.Reason, "item": it.ID}})
}

func checkReason(d Decision) error {
	if !d.Approve && d.Reason == "" {
		return apperr.Field("reason", MsgReasonRequired)
	}
	if len([]rune(d.Reason)) > 500 {
		return apperr.Field("reason", MsgReasonLong)
	}
	return nil
}

func trim(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
