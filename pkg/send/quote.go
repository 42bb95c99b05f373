package send

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/blocklist"
)

// Defaults of QuoteOptions.
const (
	DefaultQuoteTTL        = 10 * time.Minute // how long a cached file quote is kept
	DefaultQuoteConcurrent = 2                // walks at once per account
)

// quoteHold bounds how long a walk keeps its slot (should its instance die).
const quoteHold = 2 * time.Minute

// QuoteOptions configure calculate-price (Quote). Pricing a file walks all its rows
// (seconds for a million), so valid quotes that must walk count against a
// per-account limit and at most Concurrent run at once per account (more are
// answered 429 at once), and a file's quote is cached under a key made of everything
// its price depends on: the file and its parse, the text, the line and the cancel-11
// choice, the tariff table, the account's blacklist and the generation of the
// operators' block lists. A change to any of them
// makes a new key, so nothing is invalidated by hand.
type QuoteOptions struct {
	PerMin int                   // quotes that walk, per account per minute (0: no limit)
	Cache  redis.UniversalClient // where file quotes are cached (nil: not cached)
	TTL    time.Duration         // how long (DefaultQuoteTTL when 0)
	// Concurrent is how many walks of one account may run at once
	// (DefaultQuoteConcurrent when 0).
	Concurrent int
}

// SetQuoteOptions configures Quote; call it before serving.
func (s *Service) SetQuoteOptions(o QuoteOptions) {
	if o.TTL <= 0 {
		o.TTL = DefaultQuoteTTL
	}
	if o.Concurrent <= 0 {
		o.Concurrent = DefaultQuoteConcurrent
	}
	s.quotes = o
}

// allow counts one request of kind against the account's per-minute limit.
func (s *Service) allow(ctx context.Context, kind string, accountID int64, perMin int) error {
	if s.limit == nil || perMin <= 0 {
		return nil
	}
	ok, retry, err := s.limit.Allow(ctx, kind+strconv.FormatInt(accountID, 10), perMin, time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.RateLimit(int(retry.Seconds()) + 1)
	}
	return nil
}

// quoteOf prices a checked request: from the cache when it is a file's and nothing
// its price depends on changed, otherwise by a walk that counts against the limit.
func (s *Service) quoteOf(ctx context.Context, accountID int64, p prepared) (Quote, error) {
	key, err := s.quoteKey(ctx, accountID, p)
	if err != nil {
		return Quote{}, err
	}
	if q, ok := s.cachedQuote(ctx, key); ok {
		return q, nil
	}
	release, err := s.walkSlot(ctx, accountID)
	if err != nil {
		return Quote{}, err
	}
	defer release()
	if err := s.allow(ctx, "quote:acct:", accountID, s.quotes.PerMin); err != nil {
		return Quote{}, err
	}
	if err := s.price(ctx, accountID, &p); err != nil {
		return Quote{}, err
	}
	if key != "" {
		if b, err := json.Marshal(p.quote); err == nil {
			if err := s.quotes.Cache.Set(ctx, key, b, s.quotes.TTL).Err(); err != nil {
				slog.WarnContext(ctx, "quote not cached", "err", err)
			}
		}
	}
	return p.quote, nil
}

// walkSlot takes one of the account's concurrent quote walks (429 when none is free).
func (s *Service) walkSlot(ctx context.Context, accountID int64) (func(), error) {
	if s.limit == nil {
		return func() {}, nil
	}
	release, ok, err := s.limit.Acquire(ctx, "quote:busy:"+strconv.FormatInt(accountID, 10), s.quotes.Concurrent, quoteHold)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.RateLimit(1)
	}
	return release, nil
}

// quoteKey is the cache key of a file quote ("" when the quote is not cached).
func (s *Service) quoteKey(ctx context.Context, accountID int64, p prepared) (string, error) {
	if s.quotes.Cache == nil || p.src.FileID <= 0 {
		return "", nil
	}
	var (
		parsed, blNewest *time.Time
		records, valid   int
		blCount          int64
	)
	err := s.pool.QueryRow(ctx, `SELECT f.parsed_at, f.records, f.valid, b.n, b.newest FROM files f,
		(SELECT count(*) AS n, max(created_at) AS newest FROM blacklist
			WHERE account_id = $1 AND kind IN ('send', 'cancel11')) b
		WHERE f.id = $2 AND f.account_id = $1`, accountID, p.src.FileID).Scan(&parsed, &records, &valid, &blCount, &blNewest)
	if err != nil {
		return "", fmt.Errorf("quote key: %w", err)
	}
	gen, err := blocklist.Gen(ctx, s.pool) // the operators' block lists, read by advertising quotes
	if err != nil {
		return "", fmt.Errorf("quote key: %w", err)
	}
	material, err := json.Marshal([]any{accountID, p.typ, p.src, parsed, records, valid, p.text, p.cancel11,
		p.line.ID, p.line.Kind, p.tbl.Fingerprint(), blCount, blNewest, gen})
	if err != nil {
		return "", fmt.Errorf("quote key: %w", err)
	}
	sum := sha256.Sum256(material)
	return "quote:v1:" + hex.EncodeToString(sum[:]), nil
}

// cachedQuote reads a cached quote; a Redis error is logged and counts as a miss.
func (s *Service) cachedQuote(ctx context.Context, key string) (Quote, bool) {
	var q Quote
	if key == "" {
		return q, false
	}
	b, err := s.quotes.Cache.Get(ctx, key).Bytes()
	if err != nil {
		if !errors.Is(err, redis.Nil) {
			slog.WarnContext(ctx, "quote cache", "err", err)
		}
		return q, false
	}
	return q, json.Unmarshal(b, &q) == nil
}
