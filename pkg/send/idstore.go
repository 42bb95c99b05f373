package send

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// IDStore keeps the receipts' lookup from an accepted part's message id to its
// recipient in Redis (docs/architecture.md §3.1). The ids accepted on a route
// within one hour are the fields of one hash, mid:<route>:<hour> (hours since the
// Unix epoch), each holding the recipient, the part and when the SMSC accepted it;
// the hash expires once its newest field is older than the id retention. A batch
// of ids is then one HSET a route and hour, and a batch of receipts one HMGET a
// route and hour: a key a part, set and read one by one, cost Redis and both
// processes more CPU than the message_ids row it replaces. A later part that
// reuses the id takes the field over (or a newer hour's hash holds it, read
// first), as a reused id takes its message_ids row over. PostgreSQL keeps what a
// lost hash needs: the ids on the recipient (recipients.msg_ids), matched on the
// receipt's handset.
type IDStore struct {
	rdb redis.UniversalClient
	ttl time.Duration
}

// NewIDStore is the id store on rdb; ids expire after ttl (0: DefaultIDRetention).
func NewIDStore(rdb redis.UniversalClient, ttl time.Duration) *IDStore {
	if ttl <= 0 {
		ttl = DefaultIDRetention
	}
	return &IDStore{rdb: rdb, ttl: ttl}
}

// AcceptedID is one part an SMSC accepted: its route (the operator a receipt
// names), normalised message id, recipient, part (from 1) and acceptance time.
type AcceptedID struct {
	Route, ID string
	Recipient int64
	Part      int16
	At        time.Time
}

// idHit is what the store holds for an id.
type idHit struct {
	rid  int64
	part int16
	at   time.Time
}

// idHour is the width of one hash of the store.
const idHour = int64(time.Hour / time.Second)

// idBucket is the hash of the ids a route accepted in the hour of t.
type idBucket struct {
	route string
	hour  int64
}

func (b idBucket) key() string { return "mid:" + b.route + ":" + strconv.FormatInt(b.hour, 10) }

func bucketOf(route string, t time.Time) idBucket { return idBucket{route, t.Unix() / idHour} }

// Put stores the ids: one HSET and one EXPIREAT a route and hour, in one pipeline
// (the hashes of a batch may live on different nodes of a cluster).
func (s *IDStore) Put(ctx context.Context, ids []AcceptedID) error {
	if s == nil || len(ids) == 0 {
		return nil
	}
	fields := map[idBucket][]any{}
	for _, a := range ids {
		b := bucketOf(a.Route, a.At)
		v := strconv.FormatInt(a.Recipient, 10) + ":" + strconv.Itoa(int(a.Part)) + ":" + strconv.FormatInt(a.At.UnixMicro(), 10)
		fields[b] = append(fields[b], a.ID, v)
	}
	p := s.rdb.Pipeline()
	for b, kv := range fields {
		p.HSet(ctx, b.key(), kv...)
		p.ExpireAt(ctx, b.key(), time.Unix((b.hour+1)*idHour, 0).Add(s.ttl))
	}
	if _, err := p.Exec(ctx); err != nil {
		return fmt.Errorf("store message ids: %w", err)
	}
	return nil
}

// idQuery is one lookup: the id of route received at a time, from a handset.
type idQuery struct {
	route, id string
	received  time.Time
	mobile    string
}

// get looks the ids up; an id the store does not hold (or holds in a form it
// cannot read) has the zero idHit. Each id is looked for in the hash of the hour
// its receipt came in (or two minutes later: clocks differ) and the hour before,
// which hold the parts accepted in the last one to two hours (most receipts).
// One of a receipt with a handset not found there is left to PostgreSQL's
// handset match; one without a handset is then looked for in every older hour of
// the retention. Each round is one pipeline; the newest hour's hit wins (a part
// in a newer hour reused the id of one in an older).
func (s *IDStore) get(ctx context.Context, qs []idQuery) ([]idHit, error) {
	out := make([]idHit, len(qs))
	if s == nil || len(qs) == 0 {
		return out, nil
	}
	now := time.Now()
	oldest := now.Add(-s.ttl).Unix() / idHour
	first := make([]int64, len(qs))
	for i, q := range qs {
		first[i] = bucketOf("", minTime(q.received.Add(receiptSlack), now)).hour
	}
	recent := func(int) (int64, int64) { return 0, 1 }
	older := func(i int) (int64, int64) {
		if len(qs[i].mobile) >= 10 {
			return 1, 0 // none
		}
		return 2, first[i] - oldest
	}
	for _, backs := range []func(int) (int64, int64){recent, older} {
		if err := s.ask(ctx, qs, first, oldest, backs, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// idAsk is one id looked for in one hash: query i, that many hours back.
type idAsk struct {
	i    int
	back int64
}

// ask reads, in one pipeline, the ids not found yet in the hours backs says
// (from, to hours before first[i], down to the oldest hour kept) into out.
func (s *IDStore) ask(ctx context.Context, qs []idQuery, first []int64, oldest int64,
	backs func(int) (int64, int64), out []idHit) error {
	asks := map[idBucket][]idAsk{}
	for i, q := range qs {
		from, to := backs(i)
		for back := from; out[i].rid == 0 && back <= to && first[i]-back >= oldest; back++ {
			b := idBucket{q.route, first[i] - back}
			asks[b] = append(asks[b], idAsk{i, back})
		}
	}
	if len(asks) == 0 {
		return nil
	}
	p := s.rdb.Pipeline()
	cmds := make(map[idBucket]*redis.SliceCmd, len(asks))
	for b, as := range asks {
		fields := make([]string, len(as))
		for j, a := range as {
			fields[j] = qs[a.i].id
		}
		cmds[b] = p.HMGet(ctx, b.key(), fields...)
	}
	if _, err := p.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("look message ids up: %w", err)
	}
	best := map[int]int64{}
	for b, c := range cmds {
		vals, err := c.Result()
		for j := range vals {
			a := asks[b][j]
			str, ok := vals[j].(string)
			if prev, seen := best[a.i]; err != nil || !ok || (seen && prev <= a.back) {
				continue
			}
			if h := parseHit(str); h.rid != 0 {
				out[a.i], best[a.i] = h, a.back
			}
		}
	}
	return nil
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// parseHit reads a stored value (recipient:part:accepted µs).
func parseHit(v string) idHit {
	f := strings.Split(v, ":")
	if len(f) != 3 {
		return idHit{}
	}
	rid, err1 := strconv.ParseInt(f[0], 10, 64)
	part, err2 := strconv.ParseInt(f[1], 10, 16)
	at, err3 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || rid <= 0 || part <= 0 {
		return idHit{}
	}
	return idHit{rid: rid, part: int16(part), at: time.UnixMicro(at)}
}

// SetIDStore sets the id store receipts are looked up in first.
func (s *Service) SetIDStore(ids *IDStore) { s.ids = ids }
