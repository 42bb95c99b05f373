package gateway

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
)

// randomInbound is a receipt or MO part with random fields: ids with and without
// alternatives, states and errors or none, single and concatenated MO parts (with
// and without their UCS-2 bytes), text with any byte and the separators of the
// packed format.
func randomInbound(r *rand.Rand) Inbound {
	str := func(max int) string {
		b := make([]byte, r.IntN(max+1))
		for i := range b {
			b[i] = []byte("0123456789abcdef:,1 \x00\xff\xd8")[r.IntN(22)]
		}
		return string(b)
	}
	in := Inbound{Operator: []string{"mci", "irancell", "rightel"}[r.IntN(3)], Mobile: str(14), Line: str(10),
		ReceivedAt: time.Unix(1_700_000_000+r.Int64N(1e8), r.Int64N(1e9)).UTC()}
	if r.IntN(2) == 0 {
		in.Kind, in.MsgID, in.Stat = KindReceipt, "m"+str(20), r.IntN(4)
		for range r.IntN(3) {
			in.MsgIDAlt = append(in.MsgIDAlt, "a"+strings.ReplaceAll(str(8), ",", ""))
		}
		if r.IntN(2) == 0 {
			in.State, in.Err = "DELIVRD", str(3)
		}
		return in
	}
	in.Kind, in.Text, in.UDHSeq, in.UDHTotal = KindMO, str(200), 1, 1
	if r.IntN(2) == 0 {
		in.UDHTotal = 2 + r.IntN(5)
		in.UDHSeq, in.UDHRef = 1+r.IntN(in.UDHTotal), r.IntN(0x10000)
		if r.IntN(2) == 0 {
			in.UCS2 = []byte(str(40) + "x")
		}
	}
	return in
}

// A packed entry reads back as the same entry written one field a value, for
// any entry; and the packed value is one field.
func TestPackedMatchesFields(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 1))
	for i := range 3000 {
		in := randomInbound(r)
		want, werr := ParseInbound(strValues(in.Values()))
		p := in.Packed()
		if len(p) != 2 || p[0] != FieldPacked {
			t.Fatalf("packed entry %q", p)
		}
		got, gerr := ParseInbound(strValues(p))
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("entry %d %+v\npacked %+v (%v)\nfields %+v (%v)", i, in, got, gerr, want, werr)
		}
	}
}

// A packed value cut short anywhere, with a length changed, with bytes after its
// last field, of another version or beside another field is refused as
// malformed, never read as another entry.
func TestPackedMalformed(t *testing.T) {
	at := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	for _, in := range []Inbound{
		{Kind: KindReceipt, Operator: "mci", MsgID: "5f3a9c01", MsgIDAlt: []string{"1597676545"}, Stat: StatDelivered,
			State: "DELIVRD", Mobile: "989121234567", Line: "30001234", ReceivedAt: at},
		{Kind: KindMO, Operator: "mci", Mobile: "989121234567", Line: "3000", Text: "سلام: 12:3",
			UDHRef: 7, UDHSeq: 1, UDHTotal: 2, UCS2: []byte{0xd8, 0x3d}, ReceivedAt: at},
	} {
		p := in.Packed()[1].(string)
		refused := func(what string, m map[string]any) {
			t.Helper()
			if got, err := ParseInbound(m); !errors.Is(err, ErrInbound) {
				t.Errorf("%s: read as %+v, %v", what, got, err)
			}
		}
		for n := range len(p) {
			refused("cut to "+p[:n], map[string]any{FieldPacked: p[:n]})
		}
		for _, at := range lengthsOf(t, p) {
			refused("a length past the end at "+p[:at], map[string]any{FieldPacked: p[:at] + "99999" + p[at:]})
			refused("no length at "+p[:at], map[string]any{FieldPacked: p[:at] + ":" + p[at:]})
		}
		refused("bytes after", map[string]any{FieldPacked: p + "x"})
		refused("an empty field after", map[string]any{FieldPacked: p + "0:"})
		refused("version 2", map[string]any{FieldPacked: "2" + p[1:]})
		refused("another field", map[string]any{FieldPacked: p, FieldKind: KindReceipt})
	}
}

// lengthsOf is where each field's length starts in packed value p.
func lengthsOf(t *testing.T, p string) []int {
	t.Helper()
	var at []int
	for pos := 1; pos < len(p); {
		colon := pos + strings.IndexByte(p[pos:], ':')
		n, err := strconv.Atoi(p[pos:colon])
		if err != nil {
			t.Fatalf("length at %d of %q: %v", pos, p, err)
		}
		at, pos = append(at, pos), colon+1+n
	}
	if len(at) != len(packedFields) {
		t.Fatalf("%d fields in %q", len(at), p)
	}
	return at
}

// Any byte of a packed value changed to any other reads as an entry or is
// refused as malformed: it never panics and never gives another error.
func TestPackedAlteredBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 2))
	for range 300 {
		p := []byte(randomInbound(r).Packed()[1].(string))
		for range 20 {
			q := append([]byte(nil), p...)
			q[r.IntN(len(q))] = byte(r.IntN(256))
			if _, err := ParseInbound(map[string]any{FieldPacked: string(q)}); err != nil && !errors.Is(err, ErrInbound) {
				t.Fatalf("%q: %v", q, err)
			}
		}
	}
}

// The inbound format (settings 'inbound_format'): a gateway writes the stream's
// entries one field a value while the format is fields, as the previous
// release's workers read them, and packed once it reads the switch, without a
// restart; each entry reads back as the receipt it stores either way.
func TestInboundFormatSwitch(t *testing.T) {
	e := newEnv(t, smscsim.Config{}) // immediate receipts, all DELIVRD
	if err := send.SetInboundFormat(e.ctx(), e.db.Pool, send.InboundFields); err != nil {
		t.Fatal(err)
	}
	g := e.start(e.config(nil), func(g *Gateway) { g.formatEvery = 20 * time.Millisecond })
	const n = 200
	for round, format := range []string{send.InboundFields, send.InboundPacked} {
		if err := send.SetInboundFormat(e.ctx(), e.db.Pool, format); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 30*time.Second, "the gateway reads the format "+format, func() bool {
			return g.packed.Load() == (format == send.InboundPacked)
		})
		sendID := e.createSend("round", true, "queued")
		e.addRecipients(sendID, 1, n, round*n, "98912", "mci", 1)
		e.enqueue(jobs.SendBatch{SendID: sendID, Batch: 1, Operator: "mci"}, "")
		waitFor(t, 30*time.Second, "the round's receipts in the stream", func() bool { return e.streamLen() >= int64((round+1)*n) })
		msgs, err := e.redis.Client.XRange(e.ctx(), jobs.InboundStream, "-", "+").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs[round*n:] {
			_, packed := m.Values[FieldPacked]
			if packed != (format == send.InboundPacked) || (packed && len(m.Values) != 1) {
				t.Fatalf("format %s: entry %v", format, m.Values)
			}
		}
	}
	entries := e.streamEntries()
	mobiles := map[string]bool{}
	for _, in := range entries {
		if in.Kind != KindReceipt || in.Operator != "mci" || in.Stat != StatDelivered || in.MsgID == "" {
			t.Fatalf("entry %+v", in)
		}
		mobiles[in.Mobile] = true
	}
	if len(entries) != 2*n || len(mobiles) != 2*n {
		t.Fatalf("%d entries for %d handsets, want %d each", len(entries), len(mobiles), 2*n)
	}
}
