package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// streamWriter appends entries to a Redis stream for many concurrent
// callers, each of which waits until its own entry is stored. Requests that
// arrive while a pipeline is in flight are coalesced into the next one, so
// under load one round trip stores many receipts while every deliver_sm is
// still answered only after its own entry is durable.
type streamWriter struct {
	rdb      redis.UniversalClient
	stream   string
	replicas int // replicas that must hold an entry (Redis WAIT) before it counts as stored
	log      *slog.Logger
	reqs     chan *xaddReq
	quit     chan struct{}
	wg       sync.WaitGroup
	once     sync.Once
}

type xaddReq struct {
	values []any
	done   chan error
}

const (
	streamLoops    = 2               // pipelines in flight at once
	streamMaxBatch = 512             // entries per pipeline
	streamTimeout  = 5 * time.Second // bound of one pipeline round trip
	// streamLinger is how long a pipeline waits for more entries after its
	// first (see fill): well under what a carrier waits for deliver_sm_resp.
	streamLinger = 2 * time.Millisecond
	// replicaWait bounds the wait for replicas: past it the entries count as
	// not stored, the carrier sends them again, and they are stored again.
	replicaWait = 500 * time.Millisecond
)

var errWriterClosed = errors.New("gateway: inbound stream writer closed")

func newStreamWriter(rdb redis.UniversalClient, stream string, replicas int, log *slog.Logger) *streamWriter {
	w := &streamWriter{
		rdb:      rdb,
		stream:   stream,
		replicas: replicas,
		log:      log,
		reqs:     make(chan *xaddReq, streamMaxBatch),
		quit:     make(chan struct{}),
	}
	w.wg.Add(streamLoops)
	for range streamLoops {
		go w.loop()
	}
	return w
}

// Add stores one entry and returns once Redis has acknowledged it.
func (w *streamWriter) Add(ctx context.Context, values []any) error {
	return w.AddMany(ctx, [][]any{values})[0]
}

// AddMany stores entries, each as Add does, and returns one error per entry
// (nil: stored). Entries queued together usually share one pipeline, and the
// caller is woken once rather than once per entry.
func (w *streamWriter) AddMany(ctx context.Context, entries [][]any) []error {
	errs := make([]error, len(entries))
	reqs := make([]xaddReq, len(entries))
	queued := 0
	for ; queued < len(entries); queued++ {
		reqs[queued] = xaddReq{values: entries[queued], done: make(chan error, 1)}
		if err := w.queue(ctx, &reqs[queued]); err != nil {
			for i := queued; i < len(entries); i++ {
				errs[i] = err
			}
			break
		}
	}
	for i := range queued {
		select {
		case errs[i] = <-reqs[i].done:
		case <-ctx.Done():
			errs[i] = fmt.Errorf("await xadd: %w", ctx.Err())
		}
	}
	return errs
}

// queue hands one request to the pipelines.
func (w *streamWriter) queue(ctx context.Context, req *xaddReq) error {
	select {
	case w.reqs <- req:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("queue xadd: %w", ctx.Err())
	case <-w.quit:
		return errWriterClosed
	}
}

// Close stops the writer once no caller is left; requests already queued
// are answered errWriterClosed.
func (w *streamWriter) Close() {
	w.once.Do(func() { close(w.quit) })
	w.wg.Wait()
	for {
		select {
		case req := <-w.reqs:
			req.done <- errWriterClosed
		default:
			return
		}
	}
}

func (w *streamWriter) loop() {
	defer w.wg.Done()
	batch := make([]*xaddReq, 0, streamMaxBatch)
	for {
		select {
		case <-w.quit:
			return
		case req := <-w.reqs:
			batch = append(batch[:0], req)
		}
		batch = w.fill(batch)
		w.flush(batch)
		clear(batch)
	}
}

// fill adds to batch the requests that arrive within streamLinger of the first
// (or until it is full): a carrier's receipts come one at a time, and one
// pipeline for those of a millisecond or two costs Redis and the gateway one
// round trip instead of one each. What is already queued when the wait ends
// goes too: select picks at random among ready cases, and a busy machine that
// let the timer fire mid-drain would otherwise split the queue into small
// pipelines just when the gateway can least afford them.
func (w *streamWriter) fill(batch []*xaddReq) []*xaddReq {
	linger := time.NewTimer(streamLinger)
	defer linger.Stop()
	for len(batch) < streamMaxBatch {
		select {
		case req := <-w.reqs:
			batch = append(batch, req)
		case <-linger.C:
			return w.drain(batch)
		case <-w.quit:
			return batch
		}
	}
	return batch
}

// drain adds to batch what is queued now, without waiting, until it is full.
func (w *streamWriter) drain(batch []*xaddReq) []*xaddReq {
	for len(batch) < streamMaxBatch {
		select {
		case req := <-w.reqs:
			batch = append(batch, req)
		default:
			return batch
		}
	}
	return batch
}

func (w *streamWriter) flush(batch []*xaddReq) {
	ctx, cancel := context.WithTimeout(context.Background(), streamTimeout)
	defer cancel()
	pipe := w.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(batch))
	for i, req := range batch {
		cmds[i] = pipe.XAdd(ctx, &redis.XAddArgs{Stream: w.stream, Values: req.values})
	}
	var wait *redis.Cmd
	if w.replicas > 0 {
		wait = pipe.Do(ctx, "WAIT", w.replicas, replicaWait.Milliseconds())
	}
	_, execErr := pipe.Exec(ctx)
	if execErr == nil && wait != nil {
		if n, _ := wait.Int64(); n < int64(w.replicas) {
			execErr = fmt.Errorf("%d of %d replicas hold the entries", n, w.replicas)
		}
	}
	if execErr != nil {
		w.log.Warn("gateway: xadd to inbound stream failed", "stream", w.stream, "entries", len(batch), "err", execErr)
	}
	for i, req := range batch {
		req.done <- entryErr(cmds[i].Err(), execErr, w.stream)
	}
}

// entryErr is the outcome of one entry of a pipeline. A pipeline that could
// not connect leaves its commands without an error of their own (go-redis sets
// none when the dial fails), so any failure of the pipeline fails every entry
// of it: an entry Redis did store is then stored again when the carrier
// retries, which the consumer applies once (found by the chaos suite: a Redis
// restart lost the receipts whose pipeline met the refused dial).
func entryErr(cmdErr, execErr error, stream string) error {
	if cmdErr == nil {
		cmdErr = execErr
	}
	if cmdErr != nil {
		return fmt.Errorf("xadd %s: %w", stream, cmdErr)
	}
	return nil
}
