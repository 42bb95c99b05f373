package inbound

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/gateway"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/send"
)

// fuzzFields are the fields FuzzInboundEntry fills, in the order of its arguments.
var fuzzFields = []string{gateway.FieldKind, gateway.FieldOperator, gateway.FieldMsgID, gateway.FieldMsgIDAlt,
	gateway.FieldStat, gateway.FieldMobile, gateway.FieldLine, gateway.FieldText, gateway.FieldUDHRef,
	gateway.FieldUDHSeq, gateway.FieldUDHTotal, gateway.FieldUCS2, gateway.FieldReceivedAt}

// The inbound parse, check and apply path takes arbitrary bytes in every field of
// an entry, on the real database: the batch it is read with always completes, a
// valid MO read beside it is stored, and an entry refused is quarantined.
func FuzzInboundEntry(f *testing.F) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).Format(time.RFC3339Nano)
	for _, seed := range [][]string{
		{"receipt", "mci", "5F3A9C01", "", "2", "989121234567", "30001234", "", "", "", "", "", at},
		{"receipt", "mci", "5F3A\xff\xc3(", "1597676545", "3", "989121234567", "30001234", "", "", "", "", "", at},
		{"receipt", "mci", "5F3A9C02", "", "2", "98912\xff1234567", "30001234", "", "", "", "", "", at},
		{"mo", "mci", "", "", "", "989121234567", "30001234", "سلام", "", "", "", "", at},
		{"mo", "mci", "", "", "", "989121234567\x00", "30001234", "bad \xff text", "", "", "", "", at},
		{"mo", "mci", "", "", "", "989121234567", "30001234", "part", "7", "1", "2", "d83d", at},
		{"mo", "mci", "", "", "", "989121234567", "30001234", "part", "99999999999", "1", "2", "zz", at},
		{"mo", "", "", "", "", "", "", "", "", "", "", "", "yesterday"},
	} {
		b := func(i int) []byte { return []byte(seed[i]) }
		f.Add(b(0), b(1), b(2), b(3), b(4), b(5), b(6), b(7), b(8), b(9), b(10), b(11), b(12))
	}
	d, r := testenv.Postgres(f), testenv.RedisDB(f)
	ctx := context.Background()
	var acct int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('fuzz') RETURNING id`).Scan(&acct); err != nil {
		f.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO lines (account_id, number, kind) VALUES ($1, '30001234', 'service')`, acct); err != nil {
		f.Fatal(err)
	}
	if err := r.Client.XGroupCreateMkStream(ctx, jobs.InboundStream, jobs.InboundGroup, "0").Err(); err != nil {
		f.Fatal(err)
	}
	c := &Consumer{RDB: r.Client, Pool: d.Pool, Sends: send.New(d.Pool, nil, line.New(d.Pool), nil, 0, nil), Inbox: inbox.New(d.Pool)}
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, kind, op, msgID, alt, stat, mobile, lineNo, text, ref, seq, total, ucs2, receivedAt []byte) {
		values := map[string]any{}
		for i, v := range [][]byte{kind, op, msgID, alt, stat, mobile, lineNo, text, ref, seq, total, ucs2, receivedAt} {
			if len(v) > 0 {
				values[fuzzFields[i]] = string(v)
			}
		}
		id := n.Add(1)
		// Every other round, both entries are packed (gateway.Inbound.Packed).
		packed := id%2 == 0
		fuzzed := redis.XMessage{ID: fmt.Sprintf("%d-1", id), Values: values}
		if packed {
			fuzzed.Values = packedOf(t, values)
		}
		validMO := gateway.Inbound{Kind: gateway.KindMO, Operator: "mci", Mobile: "989121110000", Line: "30001234",
			Text: fmt.Sprint("valid ", id), ReceivedAt: time.Now()}
		valid := redis.XMessage{ID: fmt.Sprintf("%d-2", id), Values: valuesOf(validMO)}
		if packed {
			valid.Values = map[string]any{gateway.FieldPacked: validMO.Packed()[1]}
		}
		if err := c.apply(ctx, []redis.XMessage{fuzzed, valid}, false); err != nil {
			t.Fatalf("the batch failed: %v", err)
		}
		var stored, quarantined bool
		if err := d.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM inbox WHERE stream_id = $1),
			EXISTS (SELECT 1 FROM inbound_quarantine WHERE stream_id = $2)`, valid.ID, fuzzed.ID).Scan(&stored, &quarantined); err != nil {
			t.Fatal(err)
		}
		if !stored {
			t.Fatal("the valid MO read beside the entry was not stored")
		}
		in, err := gateway.ParseInbound(values)
		if usable := err == nil && checkEntry(&in) == ""; !usable && !quarantined {
			t.Fatalf("an entry refused (%v) was not quarantined", err)
		}
	})
}

// valuesOf is an entry's values as go-redis reads them back.
func valuesOf(in gateway.Inbound) map[string]any {
	kv := in.Values()
	out := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// packedOrder is the order of a packed entry's fields.
var packedOrder = []string{gateway.FieldKind, gateway.FieldOperator, gateway.FieldMsgID, gateway.FieldMsgIDAlt,
	gateway.FieldStat, gateway.FieldState, gateway.FieldErr, gateway.FieldMobile, gateway.FieldLine, gateway.FieldText,
	gateway.FieldUDHRef, gateway.FieldUDHSeq, gateway.FieldUDHTotal, gateway.FieldUCS2, gateway.FieldReceivedAt}

// packedOf is the packed entry of the fields values (arbitrary bytes, written as
// they are), checked to read back as those fields do.
func packedOf(t *testing.T, values map[string]any) map[string]any {
	p := "1"
	for _, k := range packedOrder {
		v, _ := values[k].(string)
		p += strconv.Itoa(len(v)) + ":" + v
	}
	out := map[string]any{gateway.FieldPacked: p}
	a, aerr := gateway.ParseInbound(values)
	b, berr := gateway.ParseInbound(out)
	if (aerr == nil) != (berr == nil) || !reflect.DeepEqual(a, b) {
		t.Fatalf("packed %q reads as %+v (%v), its fields as %+v (%v)", p, b, berr, a, aerr)
	}
	return out
}
