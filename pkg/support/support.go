// Package support owns customer support (spec §3 Ticket, §4 "Ticket and suggestion",
// §7 Support; docs/support.md): tickets and suggestion requests with a request
// number, a conversation of interactions from both sides with attachments (checked
// by content), the six states and their explicit transitions, ratings of staff
// answers and of the closed request, staff's queue, assignment, referral and canned
// answers, the panel feedback form, the FAQ, and each account's choice of an SMS
// when staff answer. Every customer query names the account, so another account's
// request is simply not found; changes are audited.
package support

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/upload"
)

// Kinds of request.
const (
	KindTicket     = "ticket"
	KindSuggestion = "suggestion"
)

// Limits of the fields.
const (
	MaxTitle = 150
	MaxText  = 5000
)

// Persian messages (spec §8 style).
const (
	MsgTitle        = "عنوان درخواست را وارد کنید"
	MsgTitleLong    = "عنوان حداکثر ۱۵۰ کاراکتر است"
	MsgText         = "متن درخواست را وارد کنید"
	MsgTextLong     = "متن حداکثر ۵۰۰۰ کاراکتر است"
	MsgCategory     = "دسته‌بندی را انتخاب کنید"
	MsgSubCategory  = "زیرمجموعه انتخاب‌شده با دسته‌بندی هم‌خوانی ندارد"
	MsgClosed       = "این درخواست حل شده است؛ برای مشکل جدید درخواست تازه ثبت کنید"
	MsgTransition   = "این تغییر وضعیت برای درخواست در وضعیت فعلی مجاز نیست"
	MsgRating       = "امتیاز باید عددی بین ۱ تا ۵ باشد"
	MsgRatedAlready = "این مورد قبلا امتیاز گرفته است"
	MsgRateStaff    = "فقط پاسخ‌های پشتیبانی امتیاز می‌گیرند"
	MsgRateOpen     = "امتیاز درخواست پس از بسته شدن آن ثبت می‌شود"
	MsgStaffUser    = "کارشناس انتخاب‌شده یافت نشد"
)

// Audit actions of support.
const (
	ActionTicketCreate = "support.ticket_create"
	ActionTicketReply  = "support.ticket_reply"
	ActionTicketClose  = "support.ticket_close"
	ActionTicketRate   = "support.ticket_rate"
	ActionSettings     = "support.settings_update"
	ActionStaffAnswer  = "staff.ticket_answer"
	ActionStaffState   = "staff.ticket_state"
	ActionStaffAssign  = "staff.ticket_assign"
	ActionStaffCanned  = "staff.canned_answer"
	ActionStaffFAQ     = "staff.faq"
)

// Publisher sends a live event to an account's open panels (pkg/live).
type Publisher interface {
	Publish(ctx context.Context, accountID int64, event string, data any) error
}

// Enqueuer queues the answer SMS (an asynq client).
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// DefaultPerHour is how many requests and replies one account may send in an hour.
const DefaultPerHour = 60

// Limiter counts calls in a window (pkg/ratelimit).
type Limiter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration) (bool, time.Duration, error)
}

// Service stores the requests, their conversation and the FAQ.
type Service struct {
	pool  *pgxpool.Pool
	store upload.Storage
	queue Enqueuer
	limit Limiter
	// PerHour bounds an account's new requests and replies (0: no bound).
	PerHour int
	// Live hears ticket.updated events; nil sends none.
	Live Publisher
}

// New returns the service, keeping attachments in store, queueing SMS on queue and
// bounding customers' messages with limit (nil: unbounded).
func New(pool *pgxpool.Pool, store upload.Storage, queue Enqueuer, limit Limiter) *Service {
	return &Service{pool: pool, store: store, queue: queue, limit: limit, PerHour: DefaultPerHour}
}

// allow applies the per-account bound on customers' messages (staff are not bound).
func (s *Service) allow(ctx context.Context, id acl.Identity) error {
	if s.limit == nil || id.Staff {
		return nil
	}
	ok, retry, err := s.limit.Allow(ctx, "support:acct:"+strconv.FormatInt(id.AccountID, 10), s.PerHour, time.Hour)
	if err != nil {
		return fmt.Errorf("support rate: %w", err)
	}
	if !ok {
		return apperr.RateLimit(int(retry.Seconds()) + 1)
	}
	return nil
}

// cleanText trims s and checks it against required and max, adding msgs to f.
func cleanText(f apperr.Fields, field, s string, max int, empty, long string) string {
	t := strings.TrimSpace(s)
	switch {
	case t == "" && empty != "":
		f.Add(field, empty)
	case utf8.RuneCountInString(t) > max:
		f.Add(field, long)
	}
	return t
}

// notFound maps "no row" (another account's id, or none) to 404.
func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// inTx runs fn in a transaction and records the audit entry with it.
func (s *Service) inTx(ctx context.Context, id acl.Identity, e audit.Entry, fn func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		if !id.Staff {
			e.AccountID = id.AccountID
		}
		e.UserID, e.APIKeyID = id.UserID, id.APIKeyID
		return audit.Record(ctx, tx, e)
	})
}

// checkRating checks a 1–5 rating.
func checkRating(r int) error {
	if r < 1 || r > 5 {
		return apperr.Field("rating", MsgRating)
	}
	return nil
}
