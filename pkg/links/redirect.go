package links

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/shortlink"
)

// ErrUnknownCode is the answer for a code that is not one of ours, or whose
// recipient or link no longer exists.
var ErrUnknownCode = errors.New("unknown short code")

// Click is one recorded click.
type Click struct {
	AccountID, LinkID, SendID, RecipientID int64
	Operator                               string
	At                                     time.Time
}

// Resolve reads a short code: the target address (the link with its UTM
// parameters) and the click to record. It reads one row (the recipient with its
// send's text); the link's target is cached once approved. The link is the one in
// the code's slot of the send's own text — the reviewed template, never a
// recipient's rendered text, whose values may not add links — and it must be the
// send's account's and approved. A code with the first, two-character check is
// accepted only for a send made before codes were lengthened.
func (s *Service) Resolve(ctx context.Context, code string) (string, Click, error) {
	ref, ok := s.codec.Decode(code)
	if !ok {
		return "", Click{}, ErrUnknownCode
	}
	slot := ref.Slot
	c := Click{At: time.Now()}
	var text string
	// One primary-key probe per candidate, each in its own month's partition.
	// A suspended account's links stop redirecting (docs/security.md, suspension).
	err := s.pool.QueryRow(ctx, `SELECT r.id, r.send_id, r.operator, s.account_id, s.text
		FROM recipients r JOIN sends s ON s.id = r.send_id JOIN accounts a ON a.id = s.account_id AND a.status <> 'suspended'
		WHERE r.id = ANY($1::bigint[])
		AND (NOT $2 OR s.id <= coalesce((SELECT (value #>> '{}')::bigint FROM settings WHERE key = 'shortlink_legacy_send'), 0))
		LIMIT 1`, ref.Candidates(c.At), ref.Legacy).Scan(&c.RecipientID, &c.SendID, &c.Operator, &c.AccountID, &text)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", c, ErrUnknownCode
	}
	if err != nil {
		return "", c, fmt.Errorf("resolve %s: %w", code, err)
	}
	ids := shortlink.LinkIDs(text)
	if slot >= len(ids) {
		return "", c, ErrUnknownCode
	}
	c.LinkID = ids[slot]
	t, err := s.target(ctx, c.LinkID, c.AccountID)
	if err != nil {
		return "", c, err
	}
	return t.address(c.SendID), c, nil
}

// target is an approved link's address and UTM parameters, and its account.
type target struct {
	account                  int64
	url                      string
	source, medium, campaign string
}

// address is the link's address with the UTM parameters appended (parameters the
// address already has are kept; an empty campaign names the send).
func (t target) address(sendID int64) string {
	u, err := url.Parse(t.url)
	if err != nil {
		return t.url
	}
	q := u.Query()
	campaign := t.campaign
	if campaign == "" {
		campaign = "send-" + strconv.FormatInt(sendID, 10)
	}
	for k, v := range map[string]string{"utm_source": or(t.source, "chapar"), "utm_medium": or(t.medium, "sms"), "utm_campaign": campaign} {
		if q.Get(k) == "" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// targetCache keeps approved link targets by id (a link's target never changes,
// and an approved link stays approved).
type targetCache struct {
	mu sync.RWMutex
	m  map[int64]target
}

const targetCacheMax = 10_000

func (s *Service) target(ctx context.Context, linkID, accountID int64) (target, error) {
	s.targets.mu.RLock()
	t, ok := s.targets.m[linkID]
	s.targets.mu.RUnlock()
	if ok {
		if t.account != accountID { // another account's link: never ours to redirect
			return target{}, ErrUnknownCode
		}
		return t, nil
	}
	t.account = accountID
	err := s.pool.QueryRow(ctx, `SELECT url, utm_source, utm_medium, utm_campaign FROM tracked_links
		WHERE id = $1 AND account_id = $2 AND status = 'approved'`, linkID, accountID).Scan(&t.url, &t.source, &t.medium, &t.campaign)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, ErrUnknownCode
	}
	if err != nil {
		return t, fmt.Errorf("link %d: %w", linkID, err)
	}
	s.targets.mu.Lock()
	if len(s.targets.m) >= targetCacheMax {
		clear(s.targets.m)
	}
	s.targets.m[linkID] = t
	s.targets.mu.Unlock()
	return t, nil
}

// clicks buffers clicks in memory until the recorder writes them in one
// statement pair; nothing is dropped (a failed write is retried on the next tick).
type clicks struct {
	mu      sync.Mutex
	pending []Click
	flushMu sync.Mutex // one flush at a time
}

func newClicks() clicks { return clicks{pending: make([]Click, 0, 1024)} }

// Record buffers one click.
func (s *Service) Record(c Click) {
	s.clicks.mu.Lock()
	s.clicks.pending = append(s.clicks.pending, c)
	s.clicks.mu.Unlock()
}

// FlushEvery is the recorder's period.
const FlushEvery = 500 * time.Millisecond

// Run writes the buffered clicks every FlushEvery until ctx ends, then once more.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := s.Flush(ctx); err != nil {
				slog.WarnContext(ctx, "clicks not written; retried on the next tick", "err", err)
			}
		case <-ctx.Done():
			if err := s.Flush(context.WithoutCancel(ctx)); err != nil {
				slog.WarnContext(ctx, "clicks lost at shutdown", "err", err)
			}
			return
		}
	}
}

// Flush writes the buffered clicks: every one into link_clicks and each
// recipient's first click on a link into link_visitors (its key keeps the unique
// count exact), in one transaction.
func (s *Service) Flush(ctx context.Context) error {
	s.clicks.flushMu.Lock()
	defer s.clicks.flushMu.Unlock()
	s.clicks.mu.Lock()
	batch := s.clicks.pending
	s.clicks.pending = make([]Click, 0, max(1024, len(batch)))
	s.clicks.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := writeClicks(ctx, s.pool, batch); err != nil {
		s.clicks.mu.Lock()
		s.clicks.pending = append(batch, s.clicks.pending...)
		s.clicks.mu.Unlock()
		return err
	}
	return nil
}

// writeClicks inserts a batch of clicks as arrays (one multi-row statement each).
func writeClicks(ctx context.Context, pool *pgxpool.Pool, batch []Click) error {
	n := len(batch)
	acc, link, send, rcpt := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	ops, at := make([]string, n), make([]time.Time, n)
	for i, c := range batch {
		acc[i], link[i], send[i], rcpt[i], ops[i], at[i] = c.AccountID, c.LinkID, c.SendID, c.RecipientID, c.Operator, c.At
	}
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO link_clicks (account_id, link_id, send_id, recipient_id, operator, clicked_at)
			SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::timestamptz[])`,
			acc, link, send, rcpt, ops, at); err != nil {
			return fmt.Errorf("insert clicks: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO link_visitors (link_id, recipient_id, send_id, operator, first_at)
			SELECT DISTINCT ON (l, r) l, r, s, o, t FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::timestamptz[])
				AS x(l, r, s, o, t) ORDER BY l, r, t
			ON CONFLICT (link_id, recipient_id) DO NOTHING`, link, rcpt, send, ops, at); err != nil {
			return fmt.Errorf("insert visitors: %w", err)
		}
		return nil
	})
}
