// Package webhook owns an account's webhooks (docs/webhooks.md): endpoints (a URL,
// the events it wants, an enabled flag and a signing secret shown once), the outbox
// of events written in the transaction of the change they report (delivery receipts,
// inbound messages, send status changes), and their delivery by the worker: events
// batched up to Settings.Batch per POST, signed with HMAC-SHA256 over
// "timestamp.body", retried with exponential back-off for Settings.Window, then
// dead-lettered until replayed from the panel. Every URL is checked against private
// and reserved addresses when saved and again when connecting (Guard).
package webhook

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Event types an endpoint may subscribe to.
const (
	EventDelivery = "delivery.receipt" // a recipient reached (or failed to reach) the handset
	EventInbound  = "inbound.message"  // a message received on one of the account's lines
	EventSend     = "send.status"      // a send changed state (queued, sending, done, …)
	EventTest     = "webhook.test"     // sent from the panel's test button
)

// Events are the subscribable event types.
var Events = []string{EventDelivery, EventInbound, EventSend}

// Persian messages of this domain (spec §8).
const (
	MsgURL       = "نشانی وب‌هوک باید با http:// یا https:// آغاز شود و معتبر باشد"
	MsgPrivate   = "نشانی وب‌هوک به شبکهٔ خصوصی یا رزرو‌شده اشاره می‌کند و مجاز نیست"
	MsgResolve   = "نام میزبان نشانی وب‌هوک پیدا نشد"
	MsgEvents    = "دست‌کم یک رویداد معتبر انتخاب کنید"
	MsgDescLong  = "توضیح حداکثر ۲۰۰ نویسه است"
	MsgTooMany   = "حداکثر ۲۰ نشانی وب‌هوک مجاز است"
	MsgNotDead   = "فقط ارسال‌های ناموفق را می‌توان دوباره فرستاد"
	MsgDisabled  = "این وب‌هوک غیرفعال است"
	maxURL       = 2000
	maxEndpoints = 20
)

func fieldErr(field, msg string) error { return apperr.Field(field, msg) }

// Service manages endpoints and deliveries.
type Service struct {
	pool  *pgxpool.Pool
	guard Guard
}

// New returns the service; guard checks URLs at save time.
func New(pool *pgxpool.Pool, guard Guard) *Service { return &Service{pool: pool, guard: guard} }

// Endpoint is one webhook endpoint as the panel shows it (never its secret).
type Endpoint struct {
	ID          int64     `json:"id"`
	URL         string    `json:"url"`
	Events      []string  `json:"events"`
	Enabled     bool      `json:"enabled"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	Pending     int64     `json:"pending"`
	Dead        int64     `json:"dead"`
}

// Input is the form of an endpoint.
type Input struct {
	ID          int64    `json:"id"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Enabled     *bool    `json:"enabled"`
	Description string   `json:"description"`
}

// Created is a new endpoint and its signing secret, shown this once.
type Created struct {
	Endpoint
	Secret string `json:"secret"`
}

func (s *Service) check(ctx context.Context, in *Input) error {
	in.URL, in.Description = strings.TrimSpace(in.URL), strings.TrimSpace(in.Description)
	if err := s.guard.CheckURL(ctx, in.URL); err != nil {
		return err
	}
	var evs []string
	for _, e := range in.Events {
		if !slices.Contains(Events, e) {
			return fieldErr("events", MsgEvents)
		}
		if !slices.Contains(evs, e) {
			evs = append(evs, e)
		}
	}
	if len(evs) == 0 {
		return fieldErr("events", MsgEvents)
	}
	in.Events = evs
	if len([]rune(in.Description)) > 200 {
		return fieldErr("description", MsgDescLong)
	}
	return nil
}

const endpointCols = `e.id, e.url, e.events, e.enabled, e.description, e.created_at, e.updated_at,
	(SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending'),
	(SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'dead')`

func scanEndpoint(r pgx.CollectableRow) (Endpoint, error) {
	var e Endpoint
	err := r.Scan(&e.ID, &e.URL, &e.Events, &e.Enabled, &e.Description, &e.CreatedAt, &e.UpdatedAt, &e.Pending, &e.Dead)
	return e, err
}

// List returns the account's endpoints, newest first.
func (s *Service) List(ctx context.Context, id acl.Identity) ([]Endpoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints e
		WHERE e.account_id = $1 AND e.deleted_at IS NULL ORDER BY e.id DESC`, id.AccountID)
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanEndpoint)
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	return out, nil
}

// Get returns one endpoint of the account.
func (s *Service) Get(ctx context.Context, id acl.Identity, endpointID int64) (Endpoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints e
		WHERE e.account_id = $1 AND e.id = $2 AND e.deleted_at IS NULL`, id.AccountID, endpointID)
	if err != nil {
		return Endpoint{}, fmt.Errorf("get webhook: %w", err)
	}
	e, err := pgx.CollectExactlyOneRow(rows, scanEndpoint)
	if errors.Is(err, pgx.ErrNoRows) {
		return e, apperr.ErrNotFound
	}
	if err != nil {
		return e, fmt.Errorf("get webhook: %w", err)
	}
	return e, nil
}

// Create adds an endpoint and returns it with its secret.
func (s *Service) Create(ctx context.Context, id acl.Identity, in Input) (Created, error) {
	if err := s.check(ctx, &in); err != nil {
		return Created{}, err
	}
	secret := newSecret()
	var newID int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM webhook_endpoints WHERE account_id = $1 AND deleted_at IS NULL`,
			id.AccountID).Scan(&n); err != nil {
			return fmt.Errorf("count webhooks: %w", err)
		}
		if n >= maxEndpoints {
			return apperr.New(apperr.Invalid, MsgTooMany)
		}
		if err := tx.QueryRow(ctx, `INSERT INTO webhook_endpoints (account_id, url, events, enabled, secret, description)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, id.AccountID, in.URL, in.Events, in.Enabled == nil || *in.Enabled,
			secret, in.Description).Scan(&newID); err != nil {
			return fmt.Errorf("insert webhook: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "webhook.create",
			TargetType: "webhook", Target: fmt.Sprint(newID), After: map[string]any{"url": in.URL, "events": in.Events}})
	})
	if err != nil {
		return Created{}, err
	}
	e, err := s.Get(ctx, id, newID)
	return Created{Endpoint: e, Secret: secret}, err
}

// Update changes an endpoint's URL, events, flag and description.
func (s *Service) Update(ctx context.Context, id acl.Identity, in Input) (Endpoint, error) {
	before, err := s.Get(ctx, id, in.ID)
	if err != nil {
		return before, err
	}
	if err := s.check(ctx, &in); err != nil {
		return before, err
	}
	enabled := before.Enabled
	if in.Enabled != nil {
		enabled = *in.Enabled
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE webhook_endpoints SET url = $3, events = $4, enabled = $5, description = $6,
			updated_at = now() WHERE account_id = $1 AND id = $2`, id.AccountID, in.ID, in.URL, in.Events, enabled,
			in.Description); err != nil {
			return fmt.Errorf("update webhook: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "webhook.update",
			TargetType: "webhook", Target: fmt.Sprint(in.ID),
			Before: map[string]any{"url": before.URL, "events": before.Events, "enabled": before.Enabled},
			After:  map[string]any{"url": in.URL, "events": in.Events, "enabled": enabled}})
	})
	if err != nil {
		return before, err
	}
	return s.Get(ctx, id, in.ID)
}

// Delete removes an endpoint; its undelivered events go with it.
func (s *Service) Delete(ctx context.Context, id acl.Identity, endpointID int64, _ string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE webhook_endpoints SET deleted_at = now(), enabled = false
			WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL`, id.AccountID, endpointID)
		if err != nil {
			return fmt.Errorf("delete webhook: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound
		}
		if _, err := tx.Exec(ctx, `DELETE FROM webhook_deliveries WHERE endpoint_id = $1 AND status <> 'delivered'`,
			endpointID); err != nil {
			return fmt.Errorf("delete webhook deliveries: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM webhook_events WHERE endpoint_id = $1 AND delivery_id IS NULL`,
			endpointID); err != nil {
			return fmt.Errorf("delete webhook events: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "webhook.delete",
			TargetType: "webhook", Target: fmt.Sprint(endpointID)})
	})
}

// Test queues a webhook.test event to the endpoint as a delivery of its own.
func (s *Service) Test(ctx context.Context, id acl.Identity, endpointID int64, _ string) error {
	e, err := s.Get(ctx, id, endpointID)
	if err != nil {
		return err
	}
	if !e.Enabled {
		return apperr.New(apperr.Invalid, MsgDisabled)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var did int64
		if err := tx.QueryRow(ctx, `INSERT INTO webhook_deliveries (endpoint_id, account_id, events, test)
			VALUES ($1, $2, 1, true) RETURNING id`, endpointID, id.AccountID).Scan(&did); err != nil {
			return fmt.Errorf("test webhook: %w", err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO webhook_events (endpoint_id, event, payload, delivery_id)
			VALUES ($1, $2, jsonb_build_object('message', 'test', 'endpoint_id', $1::bigint, 'at', now()), $3)`,
			endpointID, EventTest, did)
		if err != nil {
			return fmt.Errorf("test webhook event: %w", err)
		}
		return nil
	})
}

// Delivery is one POST (a batch of events) as the panel shows it.
type Delivery struct {
	ID          int64      `json:"id"`
	EndpointID  int64      `json:"endpoint_id"`
	URL         string     `json:"url"`
	Events      int        `json:"events"`
	Status      string     `json:"status"`
	Attempts    int        `json:"attempts"`
	NextAt      time.Time  `json:"next_at"`
	LastStatus  *int       `json:"last_status"`
	LastError   string     `json:"last_error"`
	Test        bool       `json:"test"`
	CreatedAt   time.Time  `json:"created_at"`
	DeliveredAt *time.Time `json:"delivered_at"`
}

// DeliveryFilter narrows the deliveries list.
type DeliveryFilter struct {
	EndpointID int64
	Status     string // "", pending, delivered or dead
	validate.Paging
}

// Deliveries returns one page of the account's deliveries, newest first.
func (s *Service) Deliveries(ctx context.Context, id acl.Identity, f DeliveryFilter) ([]Delivery, int64, error) {
	return db.Page(ctx, s.pool, "webhook deliveries", `d.id, d.endpoint_id, e.url, d.events, d.status, d.attempts,
		d.next_at, d.last_status, d.last_error, d.test, d.created_at, d.delivered_at`,
		`FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
		WHERE d.account_id = $1 AND ($2 = 0 OR d.endpoint_id = $2) AND ($3 = '' OR d.status = $3)`, "d.id DESC",
		[]any{id.AccountID, f.EndpointID, f.Status}, f.Limit, f.Page,
		func(r pgx.CollectableRow) (Delivery, error) {
			var d Delivery
			err := r.Scan(&d.ID, &d.EndpointID, &d.URL, &d.Events, &d.Status, &d.Attempts, &d.NextAt, &d.LastStatus,
				&d.LastError, &d.Test, &d.CreatedAt, &d.DeliveredAt)
			return d, err
		})
}

// Replay sends a dead-lettered delivery again, with a fresh retry window.
func (s *Service) Replay(ctx context.Context, id acl.Identity, deliveryID int64, _ string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, `SELECT status FROM webhook_deliveries WHERE account_id = $1 AND id = $2 FOR UPDATE`,
			id.AccountID, deliveryID).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("replay webhook: %w", err)
		}
		if status != StatusDead {
			return apperr.New(apperr.Invalid, MsgNotDead)
		}
		if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_at = now(),
			first_at = now(), last_error = '' WHERE id = $1`, deliveryID); err != nil {
			return fmt.Errorf("replay webhook: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "webhook.replay",
			TargetType: "webhook_delivery", Target: fmt.Sprint(deliveryID)})
	})
}

// Delivery states.
const (
	StatusPending   = "pending"
	StatusDelivered = "delivered"
	StatusDead      = "dead"
)
