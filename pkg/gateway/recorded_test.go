package gateway

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
)

// recordedID is one accepted part's message id as the gateway recorded it.
type recordedID struct {
	route, id string
	recipient int64
	part      int
	unknown   bool // the recipient is unknown (a part without a known answer)
}

// recordedIDs is every message id recorded for the send's recipients: the parts'
// ids on their recipients (msg_ids), each with the route of its lookup entry. In
// redis mode (settings 'id_store') that entry is the Redis key mid:<route>:<id>; in
// table mode, a message_ids row. The test fails when an id is in one place and not
// the other, or the two disagree on the recipient or the part.
func (e *env) recordedIDs(sendID int64) []recordedID {
	e.t.Helper()
	mode, err := send.IDStoreMode(e.ctx(), e.db.Pool)
	if err != nil {
		e.t.Fatal(err)
	}
	rows, err := e.db.Pool.Query(e.ctx(), `SELECT k.id, r.id, k.n, r.unknown,
			coalesce((SELECT m.operator || ':' || m.recipient_id || ':' || m.part FROM message_ids m WHERE m.msg_id = k.id
				AND m.recipient_id = r.id), '')
		FROM recipients r CROSS JOIN LATERAL unnest(r.msg_ids) WITH ORDINALITY AS k(id, n)
		WHERE r.send_id = $1 AND k.id <> '' ORDER BY r.id, k.n`, sendID)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	keys := e.idKeys()
	var out []recordedID
	for rows.Next() {
		var x recordedID
		var row string
		if err := rows.Scan(&x.id, &x.recipient, &x.part, &x.unknown, &row); err != nil {
			e.t.Fatal(err)
		}
		entry := keys[x.id] // route:recipient:part:accepted
		if mode == send.IDsTable {
			entry = row
		}
		f := strings.Split(entry, ":")
		if len(f) < 3 || f[1] != strconv.FormatInt(x.recipient, 10) || f[2] != strconv.Itoa(x.part) {
			e.t.Fatalf("%s mode: id %s of recipient %d part %d has the lookup entry %q", mode, x.id, x.recipient, x.part, entry)
		}
		x.route = f[0]
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// idKeys is the id store's entries in this test's Redis database (the fields of
// its hashes mid:<route>:<hour>): id to "route:" and the stored value.
func (e *env) idKeys() map[string]string {
	e.t.Helper()
	out := map[string]string{}
	iter := e.redis.Client.Scan(e.ctx(), 0, "mid:*", 1000).Iterator()
	for iter.Next(e.ctx()) {
		route, _, _ := strings.Cut(strings.TrimPrefix(iter.Val(), "mid:"), ":")
		fields, err := e.redis.Client.HGetAll(e.ctx(), iter.Val()).Result()
		if err != nil {
			e.t.Fatal(err)
		}
		for id, v := range fields {
			out[id] = route + ":" + v
		}
	}
	if err := iter.Err(); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// countIDs counts the recorded ids that keep says to count.
func countIDs(ids []recordedID, keep func(recordedID) bool) int {
	n := 0
	for _, x := range ids {
		if keep(x) {
			n++
		}
	}
	return n
}

// With the id store down (Redis not answering the gateway's pipeline), a chunk's
// message ids go to message_ids in the outcome's transaction: recording never
// waits for Redis, and every id is still matched by receipts.
func TestIDStoreDownRecordsInTable(t *testing.T) {
	e := newEnv(t, smscsim.Config{})
	down := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	t.Cleanup(func() { _ = down.Close() })
	e.start(e.config(nil), func(g *Gateway) { g.handler.rec.store = send.NewIDStore(down, 0) })
	const n = 40
	sendID := e.createSend(persian2, true, "queued")
	e.addRecipients(sendID, 1, n, 1, "98912", "mci", 2)
	e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"}, "")
	waitFor(t, 30*time.Second, "all recipients sent", func() bool {
		return e.count(`SELECT count(*) FROM recipients WHERE send_id = $1 AND status = 0`, sendID) == n
	})
	if c := e.count(`SELECT count(*) FROM message_ids m JOIN recipients r ON r.id = m.recipient_id
		AND r.msg_ids[m.part] = m.msg_id WHERE m.send_id = $1 AND m.operator = 'mci'`, sendID); c != 2*n {
		t.Fatalf("%d message ids in message_ids agreeing with their recipients, want %d", c, 2*n)
	}
	if k := len(e.idKeys()); k != 0 {
		t.Fatalf("%d keys in the test's Redis", k)
	}
}
