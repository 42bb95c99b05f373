package inbound

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/gateway"
)

// An applied batch leaves the stream, by a trim of the head when it is the head
// and by id otherwise, and nothing else goes with it: entries another member
// holds, entries no member has read, and entries the group delivered and nobody
// holds or deleted (the orphans a Redis restart leaves) all stay.
func TestRemoveTrimsOnlyTheBatch(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		// run adds entries, reads them as members, and removes one batch; it
		// returns the batch, whether it is fresh, and whether the head may be
		// trimmed.
		run      func(s *streamCase) (batch []redis.XMessage, fresh, trim bool)
		wantLeft func(s *streamCase) []string
		pending  int
	}{
		{"the head, read at once", func(s *streamCase) ([]redis.XMessage, bool, bool) {
			s.add(10)
			return s.read("a", 10), true, true
		}, func(*streamCase) []string { return nil }, 0},
		{"the head, entries not yet read after it", func(s *streamCase) ([]redis.XMessage, bool, bool) {
			s.add(10)
			return s.read("a", 4), true, true
		}, func(s *streamCase) []string { return s.ids[4:] }, 0},
		{"behind another member's batch", func(s *streamCase) ([]redis.XMessage, bool, bool) {
			s.add(10)
			s.read("a", 5)
			return s.read("b", 5), true, false
		}, func(s *streamCase) []string { return s.ids[:5] }, 5},
		{"around another member's batch", func(s *streamCase) ([]redis.XMessage, bool, bool) {
			s.add(9)
			mine := s.read("a", 3)
			s.read("b", 3)
			return append(mine, s.read("a", 3)...), true, false
		}, func(s *streamCase) []string { return s.ids[3:6] }, 3},
		{"behind orphans", func(s *streamCase) ([]redis.XMessage, bool, bool) {
			s.add(6)
			s.ack(s.read("a", 2)) // delivered, held by nobody, not deleted
			return s.read("a", 4), true, false
		}, func(s *streamCase) []string { return s.ids[:2] }, 0},
		{"a claimed batch at the head", func(s *streamCase) ([]redis.XMessage, bool, bool) {
			s.add(6)
			return s.read("a", 6), false, false
		}, func(*streamCase) []string { return nil }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &streamCase{t: t, ctx: ctx, r: testenv.RedisDB(t)}
			s.must(s.r.Client.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err())
			batch, fresh, trim := c.run(s)
			con := &Consumer{RDB: s.r.Client}
			trimmed, err := con.remove(ctx, batch, fresh)
			s.must(err)
			if trimmed != trim {
				t.Errorf("trimmed %v, want %v", trimmed, trim)
			}
			left, err := s.r.Client.XRange(ctx, jobs.InboundStream, "-", "+").Result()
			s.must(err)
			var got []string
			for _, m := range left {
				got = append(got, m.ID)
			}
			if want := c.wantLeft(s); !slices.Equal(got, want) {
				t.Errorf("left in the stream %v, want %v", got, want)
			}
			held, err := s.r.Client.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: jobs.InboundStream,
				Group: jobs.InboundGroup, Start: "-", End: "+", Count: 100}).Result()
			s.must(err)
			for _, p := range held {
				if slices.ContainsFunc(batch, func(m redis.XMessage) bool { return m.ID == p.ID }) {
					t.Errorf("entry %s of the batch still pending", p.ID)
				}
			}
			if len(held) != c.pending {
				t.Errorf("%d entries pending, want %d (another member's)", len(held), c.pending)
			}
		})
	}
}

// streamCase is one case's stream: the ids added, in order.
type streamCase struct {
	t   *testing.T
	ctx context.Context
	r   testenv.Redis
	ids []string
}

func (s *streamCase) must(err error) {
	s.t.Helper()
	if err != nil {
		s.t.Fatal(err)
	}
}

// add appends n receipts to the stream.
func (s *streamCase) add(n int) {
	for range n {
		id, err := s.r.Client.XAdd(s.ctx, xadd(gateway.Inbound{Kind: gateway.KindReceipt, Operator: "mci",
			MsgID: "m", Stat: gateway.StatDelivered, Mobile: "989120000000", Line: "3000", ReceivedAt: time.Now()})).Result()
		s.must(err)
		s.ids = append(s.ids, id)
	}
}

// read reads n new entries as member name.
func (s *streamCase) read(name string, n int) []redis.XMessage {
	res, err := s.r.Client.XReadGroup(s.ctx, &redis.XReadGroupArgs{Group: jobs.InboundGroup, Consumer: name,
		Streams: []string{jobs.InboundStream, ">"}, Count: int64(n), Block: -1}).Result()
	s.must(err)
	if len(res) != 1 || len(res[0].Messages) != n {
		s.t.Fatalf("read %v, want %d entries", res, n)
	}
	return res[0].Messages
}

// ack acknowledges msgs without deleting them.
func (s *streamCase) ack(msgs []redis.XMessage) {
	for _, m := range msgs {
		s.must(s.r.Client.XAck(s.ctx, jobs.InboundStream, jobs.InboundGroup, m.ID).Err())
	}
}

// The id after a stream id; none after the last sequence or for a malformed id.
func TestNextID(t *testing.T) {
	for _, c := range []struct {
		id, want string
		ok       bool
	}{
		{"1700000000000-0", "1700000000000-1", true},
		{"1700000000000-41", "1700000000000-42", true},
		{"1700000000000-18446744073709551615", "", false},
		{"1700000000000", "", false},
		{"1700000000000-x", "", false},
	} {
		if got, ok := nextID(c.id); got != c.want || ok != c.ok {
			t.Errorf("nextID(%q) = %q, %v; want %q, %v", c.id, got, ok, c.want, c.ok)
		}
	}
}
