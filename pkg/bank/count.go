package bank

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/sms"
)

// CountTTL is how long a filter's counts stay cached (the bank changes only when
// it is seeded again, which changes the cache key).
const CountTTL = 10 * time.Minute

// Service counts and lists the bank.
type Service struct {
	pool   *pgxpool.Pool
	cache  redis.UniversalClient // nil: counts are not cached
	ops    *operator.Cache
	limit  *ratelimit.Limiter
	perMin int
}

// SetLimit bounds the counts an account asks for per minute (the map asks as a
// shape changes; a cached count is cheap, a new shape reads the bank).
func (s *Service) SetLimit(l *ratelimit.Limiter, perMin int) { s.limit, s.perMin = l, perMin }

func (s *Service) allow(ctx context.Context, accountID int64) error {
	if s.limit == nil || s.perMin <= 0 {
		return nil
	}
	ok, retry, err := s.limit.Allow(ctx, "bank:counts:"+strconv.FormatInt(accountID, 10), s.perMin, time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.RateLimit(int(retry.Seconds()) + 1)
	}
	return nil
}

// New returns the bank service; cache may be nil.
func New(pool *pgxpool.Pool, cache redis.UniversalClient) *Service {
	return &Service{pool: pool, cache: cache, ops: operator.NewCache(0)}
}

// CountRequest asks how many numbers a target reaches and what a send to them costs.
type CountRequest struct {
	Type   string `json:"type"`
	Target Target `json:"target"`
	// Text, when given, sets the parts priced (one part otherwise).
	Text     string `json:"text"`
	Cancel11 bool   `json:"cancel11"`
}

// Counts is the answer: how many numbers match, split by operator, gender and age
// band, how many a send would reach (Count when smaller) and its price.
type Counts struct {
	Total      int64            `json:"total"`
	Recipients int64            `json:"recipients"`
	ByOperator map[string]int64 `json:"by_operator"`
	ByGender   map[string]int64 `json:"by_gender"`   // male, female, unknown
	ByAgeBand  map[string]int64 `json:"by_age_band"` // 1–5, unknown
	Parts      int              `json:"parts"`
	Price      int64            `json:"price"`
	// Minimum is the smallest audience a send accepts; Enough says it is met.
	Minimum int  `json:"minimum"`
	Enough  bool `json:"enough"`
	Cached  bool `json:"cached"`
}

// group is one row of the split: operator, gender, age band and how many.
type group struct {
	Op     string `json:"o"`
	Gender int    `json:"g"`
	Age    int    `json:"a"`
	N      int64  `json:"n"`
}

// Count counts a target and prices a send to it for the account's tariffs.
func (s *Service) Count(ctx context.Context, accountID int64, r CountRequest) (Counts, error) {
	if err := r.Target.Check(r.Type); err != nil {
		return Counts{}, err
	}
	if err := s.allow(ctx, accountID); err != nil {
		return Counts{}, err
	}
	if r.Type == TypeTowerIrancell {
		r.Target.Operators = []string{operator.Irancell}
	}
	if err := CheckShape(ctx, s.pool, &r.Target); err != nil {
		return Counts{}, err
	}
	groups, cached, err := s.groups(ctx, r.Target)
	if err != nil {
		return Counts{}, err
	}
	tbl, err := s.ops.Load(ctx, s.pool, accountID)
	if err != nil {
		return Counts{}, err
	}
	parts := 1
	if r.Text != "" {
		parts = max(1, sms.Count(r.Text, r.Cancel11).Parts)
	}
	c := split(groups)
	c.Cached, c.Parts, c.Minimum = cached, parts, MinRecipients
	c.Recipients = c.Total
	if r.Target.Count > 0 && int64(r.Target.Count) < c.Total {
		c.Recipients = int64(r.Target.Count)
	}
	c.Enough = c.Recipients >= MinRecipients
	c.Price = price(c, tbl, parts)
	return c, nil
}

// split sums the groups into the totals.
func split(groups []group) Counts {
	c := Counts{ByOperator: map[string]int64{}, ByGender: map[string]int64{}, ByAgeBand: map[string]int64{}}
	genders := []string{"unknown", "male", "female"}
	for _, g := range groups {
		c.Total += g.N
		c.ByOperator[g.Op] += g.N
		c.ByGender[genders[min(g.Gender, 2)]] += g.N
		age := "unknown"
		if g.Age > 0 {
			age = strconv.Itoa(g.Age)
		}
		c.ByAgeBand[age] += g.N
	}
	return c
}

// price is each operator's share of the recipients at its tariff (a random draw
// takes each operator in proportion; the exact price is the send's quote).
func price(c Counts, tbl *operator.Table, parts int) int64 {
	if c.Total == 0 {
		return 0
	}
	var sum int64
	for op, n := range c.ByOperator {
		k := n
		if c.Recipients < c.Total {
			k = n * c.Recipients / c.Total
		}
		sum += k * tbl.Price(op, parts)
	}
	return sum
}

// groups reads the split of a target, from the cache when it is there.
func (s *Service) groups(ctx context.Context, t Target) ([]group, bool, error) {
	key, err := s.cacheKey(ctx, t)
	if err != nil {
		return nil, false, err
	}
	if s.cache != nil {
		if b, err := s.cache.Get(ctx, key).Bytes(); err == nil {
			var gs []group
			if json.Unmarshal(b, &gs) == nil {
				return gs, true, nil
			}
		} else if !errors.Is(err, redis.Nil) {
			slog.WarnContext(ctx, "bank count cache", "err", err)
		}
	}
	gs, err := s.countGroups(ctx, t)
	if err != nil {
		return nil, false, err
	}
	if s.cache != nil {
		if b, err := json.Marshal(gs); err == nil {
			if err := s.cache.Set(ctx, key, b, CountTTL).Err(); err != nil {
				slog.WarnContext(ctx, "bank count not cached", "err", err)
			}
		}
	}
	return gs, false, nil
}

// cacheKey names a filter's counts: the bank's version and the filter without its
// draw.
func (s *Service) cacheKey(ctx context.Context, t Target) (string, error) {
	var version string
	err := s.pool.QueryRow(ctx, `SELECT coalesce((SELECT seed || ':' || size || ':' || extract(epoch FROM generated_at)
		FROM bank_meta), 'empty')`).Scan(&version)
	if err != nil {
		return "", fmt.Errorf("bank version: %w", err)
	}
	t.Count, t.Seed = 0, 0
	b, _ := json.Marshal(t)
	sum := sha256.Sum256(append([]byte(version+"|"), b...))
	return "bank:counts:v1:" + hex.EncodeToString(sum[:]), nil
}

// countGroups counts a target: a map shape from the cell roll-up and the numbers
// on its edge, places and businesses from their roll-ups, anything else from the
// numbers through their indexes.
func (s *Service) countGroups(ctx context.Context, t Target) ([]group, error) {
	if t.shapeOnly() {
		if c, ok := coverOf(t.region()); ok {
			return s.countCover(ctx, t, c)
		}
	}
	q := query{}
	table, n := "bank_numbers", "count(*)"
	switch {
	case t.placeOnly():
		table, n = "bank_place_counts", "sum(n)::bigint"
	case t.jobOnly():
		table, n = "bank_job_counts", "sum(n)::bigint"
	}
	t.filter(&q, table != "bank_numbers")
	var out []group
	err := withoutJIT(ctx, s.pool, func(tx pgx.Tx) (err error) {
		out, err = groupRows(ctx, tx, `SELECT operator, coalesce(gender, 0), coalesce(age_band, 0), `+n+
			` FROM `+table+` WHERE `+q.where()+` GROUP BY 1, 2, 3`, q.args...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("count bank: %w", err)
	}
	return out, nil
}

// countCover counts a map shape: the roll-up rows of its inner cells, narrowed
// here, and the numbers of its edge cells through their cell index.
func (s *Service) countCover(ctx context.Context, t Target, c cover) ([]group, error) {
	var sums [groupKeys]int64
	var edge []group
	err := withoutJIT(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT c.groups, c.n FROM bank_cell_counts c
			JOIN unnest($1::smallint[], $2::bigint[]) AS u(level, cell) ON c.level = u.level AND c.cell = u.cell`, c.levels, c.cells)
		if err != nil {
			return err
		}
		var ks []int16
		var ns []int32
		_, err = pgx.ForEachRow(rows, []any{&ks, &ns}, func() error {
			for i, k := range ks {
				if int(k) < len(sums) {
					sums[k] += int64(ns[i])
				}
			}
			return nil
		})
		if err != nil || len(c.edge) == 0 {
			return err
		}
		q := query{}
		q.add("cell = ANY(%s::bigint[])", c.edge)
		t.narrow(&q, false)
		t.shapeTest(&q)
		edge, err = groupRows(ctx, tx, `SELECT operator, coalesce(gender, 0), coalesce(age_band, 0), count(*)
			FROM bank_numbers WHERE `+q.where()+` GROUP BY 1, 2, 3`, q.args...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("count map shape: %w", err)
	}
	for k, n := range sums {
		if g := (group{Op: operatorIndex[k/18], Gender: k % 18 / 6, Age: k % 6, N: n}); n > 0 && t.keeps(g) {
			edge = append(edge, g)
		}
	}
	return edge, nil
}

// keeps says whether a roll-up group passes the target's narrowing.
func (t *Target) keeps(g group) bool {
	return (len(t.Operators) == 0 || slices.Contains(t.Operators, g.Op)) &&
		(len(t.Genders) == 0 || slices.Contains(t.Genders, g.Gender)) &&
		(len(t.AgeBands) == 0 || slices.Contains(t.AgeBands, g.Age))
}

// withoutJIT runs fn in a transaction with the JIT compiler off: a map shape's
// estimated cost would start it (about 150 ms) for a query of a few milliseconds.
func withoutJIT(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL jit = off`); err != nil {
			return err
		}
		return fn(tx)
	})
}

// groupRows reads operator, gender, age band and count rows.
func groupRows(ctx context.Context, tx pgx.Tx, sql string, args ...any) ([]group, error) {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (group, error) {
		var g group
		var gender, age int16
		err := r.Scan(&g.Op, &gender, &age, &g.N)
		g.Gender, g.Age = int(gender), int(age)
		return g, err
	})
}

// CheckShape refuses a polygon PostGIS finds invalid (its sides cross).
func CheckShape(ctx context.Context, q operator.Querier, t *Target) error {
	if len(t.Polygon) == 0 || t.Circle != nil {
		return nil
	}
	rows, err := q.Query(ctx, `SELECT ST_IsValid(ST_GeomFromGeoJSON($1))`, t.polygonJSON())
	if err != nil {
		return fmt.Errorf("check shape: %w", err)
	}
	ok, err := pgx.CollectExactlyOneRow(rows, pgx.RowTo[bool])
	if err != nil {
		return fmt.Errorf("check shape: %w", err)
	}
	if !ok {
		return apperr.Field("target.polygon", MsgShapeInvalid)
	}
	return nil
}
