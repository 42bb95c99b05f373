package inbound

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
)

// trimHead deletes an applied batch by trimming the stream's head, when the
// batch is that head: the stream's first entry is the batch's first, and
// after the batch's acknowledgement no entry between its first and last is
// pending. Every entry before the new minimum is then the batch's own, or one
// another member acknowledged and is about to delete. It answers the entries
// trimmed, or -1 when the batch is not the head (and must be deleted by id).
//
// XDEL seeks each id inside its listpack node (up to 100 entries of nine
// fields), which made it the largest share of Redis' time in the end-to-end
// benchmark; XTRIM MINID drops whole nodes from the head.
var trimHead = redis.NewScript(`
local head = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
if #head == 0 or head[1][1] ~= ARGV[2] then return -1 end
if #redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[3], 1) > 0 then return -1 end
return redis.call('XTRIM', KEYS[1], 'MINID', ARGV[4])
`)

// remove acknowledges msgs and deletes them from the stream. A batch read as
// new entries (fresh: every entry of it came from reads of ">", so the entries
// between its first and last that are not its own were read by other members)
// is trimmed off the head when it is the head (trimHead); any other batch, or
// one behind an older entry (pending, or orphaned, see orphans), is deleted by
// id, so that nothing another member holds or nobody applied is lost.
func (c *Consumer) remove(ctx context.Context, msgs []redis.XMessage, fresh bool) (trimmed bool, err error) {
	ids := make([]string, len(msgs))
	for i, m := range msgs {
		ids[i] = m.ID
	}
	if err := c.RDB.XAck(ctx, jobs.InboundStream, jobs.InboundGroup, ids...).Err(); err != nil {
		return false, fmt.Errorf("ack inbound: %w", err)
	}
	if fresh {
		first, last := ids[0], ids[len(ids)-1]
		if next, ok := nextID(last); ok && !idBefore(last, first) {
			n, err := trimHead.Run(ctx, c.RDB, []string{jobs.InboundStream}, jobs.InboundGroup, first, last, next).Int64()
			if err != nil {
				return false, fmt.Errorf("trim inbound: %w", err)
			}
			if n >= 0 {
				return true, nil
			}
		}
	}
	if err := c.RDB.XDel(ctx, jobs.InboundStream, ids...).Err(); err != nil {
		return false, fmt.Errorf("delete inbound: %w", err)
	}
	return false, nil
}

// nextID is the stream id right after id ("ms-seq").
func nextID(id string) (string, bool) {
	ms, seq, ok := strings.Cut(id, "-")
	if !ok {
		return "", false
	}
	n, err := strconv.ParseUint(seq, 10, 64)
	if err != nil || n == ^uint64(0) {
		return "", false
	}
	return ms + "-" + strconv.FormatUint(n+1, 10), true
}
