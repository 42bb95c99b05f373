// Package live owns the real-time events of the panel (docs/architecture.md §5): any process
// publishes an event for an account to Redis pub/sub (channel "events:<account>"),
// every API instance holds one pattern subscription and fans each event out to the
// websockets of that account it serves (Hub), and the worker's ProgressPump turns
// the set of sends whose counters changed into throttled send.progress and
// send.status events.
package live

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
)

// DefaultPrefix is the prefix of the per-account channels.
const DefaultPrefix = "events:"

// Event names.
const (
	EventSendProgress  = "send.progress"
	EventSendStatus    = "send.status"
	EventCreditChanged = "credit.changed"
	EventInboxReceived = "inbox.received"
	EventTicketUpdated = "ticket.updated"
	EventFileProgress  = "file.progress"
)

// Message is what a socket receives: {"event": …, "data": …}.
type Message struct {
	Event string `json:"event"`
	Data  any    `json:"data"`
}

// Event is one message addressed to an account, for PublishMany.
type Event struct {
	AccountID int64
	Event     string
	Data      any
}

// Publisher publishes events to the accounts' channels. It is safe for concurrent use.
type Publisher struct {
	rdb    redis.UniversalClient
	prefix string
}

// NewPublisher builds a publisher on the channels under prefix ("" is DefaultPrefix).
func NewPublisher(rdb redis.UniversalClient, prefix string) *Publisher {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return &Publisher{rdb: rdb, prefix: prefix}
}

// Publish sends one event to the account's sockets on every API instance. Delivery is
// at most once: a socket that is not connected at the time never sees it.
func (p *Publisher) Publish(ctx context.Context, accountID int64, event string, data any) error {
	b, err := json.Marshal(Message{Event: event, Data: data})
	if err != nil {
		return fmt.Errorf("live: encode %s: %w", event, err)
	}
	if err := p.rdb.Publish(ctx, channel(p.prefix, accountID), b).Err(); err != nil {
		return fmt.Errorf("live: publish %s: %w", event, err)
	}
	return nil
}

// PublishMany sends events in one round trip, in order.
func (p *Publisher) PublishMany(ctx context.Context, events []Event) error {
	if len(events) == 0 {
		return nil
	}
	pipe := p.rdb.Pipeline()
	for _, e := range events {
		b, err := json.Marshal(Message{Event: e.Event, Data: e.Data})
		if err != nil {
			return fmt.Errorf("live: encode %s: %w", e.Event, err)
		}
		pipe.Publish(ctx, channel(p.prefix, e.AccountID), b)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("live: publish %d events: %w", len(events), err)
	}
	return nil
}

// MarkDirty records that the counters of sends changed; the ProgressPump publishes
// their progress within about half a second. rdb may be a pipeline or transaction.
func MarkDirty(ctx context.Context, rdb redis.Cmdable, sendIDs ...int64) error {
	if len(sendIDs) == 0 {
		return nil
	}
	members := make([]any, len(sendIDs))
	for i, id := range sendIDs {
		members[i] = id
	}
	if err := rdb.SAdd(ctx, jobs.DirtySends, members...).Err(); err != nil {
		return fmt.Errorf("live: mark sends dirty: %w", err)
	}
	return nil
}

func channel(prefix string, accountID int64) string {
	return prefix + strconv.FormatInt(accountID, 10)
}

// accountOf parses the account id out of a channel name.
func accountOf(prefix, ch string) (int64, bool) {
	rest, ok := strings.CutPrefix(ch, prefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil && id > 0
}
