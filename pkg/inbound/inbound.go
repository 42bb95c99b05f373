// Package inbound drains the gateways' inbound stream (delivery receipts and MO
// messages, stored by the gateway before it answered the carrier) into PostgreSQL in
// batches: receipts through send.ApplyReceipts, MO messages through inbox.Apply.
// Entries are acknowledged only after their batch committed, and entries a dead
// worker left unacknowledged are claimed again, so nothing is lost and a repeat
// changes nothing.
package inbound

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/send"
)

// Consumer applies the inbound stream.
type Consumer struct {
	RDB   redis.UniversalClient
	Sends *send.Service
	Inbox *inbox.Service
	// Name identifies this worker in the consumer group.
	Name string
	// Batch is the most entries applied in one transaction.
	Batch int
	// OnMO, when set, is told about each stored MO (the inbox.received event).
	OnMO func(ctx context.Context, m inbox.Stored)
}

// Run consumes until ctx ends.
func (c *Consumer) Run(ctx context.Context) error {
	if c.Batch <= 0 {
		c.Batch = 5000
	}
	err := c.RDB.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err()
	if err != nil && !isBusyGroup(err) {
		return fmt.Errorf("create consumer group: %w", err)
	}
	lastClaim := time.Time{}
	lastPending := time.Time{}
	for ctx.Err() == nil {
		var msgs []redis.XMessage
		if time.Since(lastClaim) > 15*time.Second {
			lastClaim = time.Now()
			claimed, _, err := c.RDB.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: jobs.InboundStream, Group: jobs.InboundGroup,
				Consumer: c.Name, MinIdle: 30 * time.Second, Start: "0-0", Count: int64(c.Batch)}).Result()
			if err == nil {
				msgs = claimed
			}
		}
		if len(msgs) == 0 {
			res, err := c.RDB.XReadGroup(ctx, &redis.XReadGroupArgs{Group: jobs.InboundGroup, Consumer: c.Name,
				Streams: []string{jobs.InboundStream, ">"}, Count: int64(c.Batch), Block: 200 * time.Millisecond}).Result()
			if err != nil && !errors.Is(err, redis.Nil) {
				if ctx.Err() != nil {
					return nil
				}
				if isNoGroup(err) {
					_ = c.RDB.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err()
				} else {
					slog.WarnContext(ctx, "read inbound stream", "err", err)
				}
				time.Sleep(500 * time.Millisecond)
				continue
			}
			for _, s := range res {
				msgs = append(msgs, s.Messages...)
			}
		}
		if len(msgs) > 0 {
			if err := c.apply(ctx, msgs); err != nil {
				slog.ErrorContext(ctx, "apply inbound batch; it will be retried", "entries", len(msgs), "err", err)
				time.Sleep(time.Second)
				continue
			}
		}
		if time.Since(lastPending) > 500*time.Millisecond {
			lastPending = time.Now()
			if a, err := c.Sends.RetryPending(ctx); err != nil {
				slog.WarnContext(ctx, "retry pending receipts", "err", err)
			} else {
				c.dirty(ctx, a.Sends)
			}
		}
	}
	return nil
}

func (c *Consumer) apply(ctx context.Context, msgs []redis.XMessage) error {
	var receipts []send.Receipt
	var mos []inbox.MO
	ids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		ids = append(ids, m.ID)
		in, err := gateway.ParseInbound(m.Values)
		if err != nil {
			slog.ErrorContext(ctx, "malformed inbound entry dropped", "id", m.ID, "err", err)
			continue
		}
		switch in.Kind {
		case gateway.KindReceipt:
			if in.Stat == gateway.StatNone {
				continue
			}
			receipts = append(receipts, send.Receipt{Operator: in.Operator, MsgID: in.MsgID, AltIDs: in.MsgIDAlt,
				Stat: int16(in.Stat), Mobile: in.Mobile})
		case gateway.KindMO:
			// Each part of a concatenated MO is stored as it came; keywords are single-part.
			mos = append(mos, inbox.MO{StreamID: m.ID, Operator: in.Operator, Sender: in.Mobile, Line: in.Line,
				Text: in.Text, ReceivedAt: in.ReceivedAt})
		}
	}
	a, err := c.Sends.ApplyReceipts(ctx, receipts)
	if err != nil {
		return err
	}
	stored, err := c.Inbox.Apply(ctx, mos)
	if err != nil {
		return err
	}
	pipe := c.RDB.Pipeline()
	pipe.XAck(ctx, jobs.InboundStream, jobs.InboundGroup, ids...)
	pipe.XDel(ctx, jobs.InboundStream, ids...)
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("ack inbound: %w", err)
	}
	c.dirty(ctx, a.Sends)
	if c.OnMO != nil {
		for _, s := range stored {
			c.OnMO(ctx, s)
		}
	}
	return nil
}

func (c *Consumer) dirty(ctx context.Context, sends []int64) {
	if len(sends) == 0 {
		return
	}
	members := make([]any, len(sends))
	for i, id := range sends {
		members[i] = strconv.FormatInt(id, 10)
	}
	if err := c.RDB.SAdd(ctx, jobs.DirtySends, members...).Err(); err != nil {
		slog.WarnContext(ctx, "mark sends dirty", "err", err)
	}
}

func isBusyGroup(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "BUSYGROUP") }
func isNoGroup(err error) bool   { return err != nil && strings.HasPrefix(err.Error(), "NOGROUP") }
