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
// recipient in Redis (docs/architecture.md §3.1): the key mid:<route>:<id> holds
// the recipient, the part and when the SMSC accepted it, and expires with the id
// retention. A later part that reuses the id takes the key over, as a reused id
// takes its message_ids row over. PostgreSQL keeps what a lost key needs: the ids
// on the recipient (recipients.msg_ids), matched on the receipt's handset.
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
// names), normalised message id, recipient and its send, part (from 1) and
// acceptance time.
type AcceptedID struct {
	Route, ID string
	Recipient int64
	Send      int64
	Part      int16
	At        time.Time
}

// idHit is what the store holds for a key.
type idHit struct {
	rid  int64
	part int16
	at   time.Time
}

func idKey(route, id string) string { return "mid:" + route + ":" + id }

// Put stores the ids in one pipeline. Pipelined commands, not MSET: the keys of
// a batch may live on different nodes of a cluster.
func (s *IDStore) Put(ctx context.Context, ids []AcceptedID) error {
	if s == nil || len(ids) == 0 {
		return nil
	}
	p := s.rdb.Pipeline()
	for _, a := range ids {
		v := strconv.FormatInt(a.Recipient, 10) + ":" + strconv.Itoa(int(a.Part)) + ":" + strconv.FormatInt(a.At.UnixMicro(), 10)
		p.Set(ctx, idKey(a.Route, a.ID), v, s.ttl)
	}
	if _, err := p.Exec(ctx); err != nil {
		return fmt.Errorf("store message ids: %w", err)
	}
	return nil
}

// get looks the keys (route, id) up; a key the store does not hold (or holds in
// a form it cannot read) has the zero idHit.
func (s *IDStore) get(ctx context.Context, routes, ids []string) ([]idHit, error) {
	out := make([]idHit, len(ids))
	if s == nil || len(ids) == 0 {
		return out, nil
	}
	p := s.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(ids))
	for i := range ids {
		cmds[i] = p.Get(ctx, idKey(routes[i], ids[i]))
	}
	if _, err := p.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("look message ids up: %w", err)
	}
	for i, c := range cmds {
		if v, err := c.Result(); err == nil {
			out[i] = parseHit(v)
		}
	}
	return out, nil
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
