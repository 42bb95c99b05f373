package gateway

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/smpp"
)

// Field names of a jobs.InboundStream entry (see the package documentation).
const (
	FieldKind       = "kind"
	FieldOperator   = "operator"
	FieldMsgID      = "msg_id"
	FieldMsgIDAlt   = "msg_id_alt"
	FieldStat       = "stat"
	FieldState      = "state"
	FieldErr        = "err"
	FieldMobile     = "mobile"
	FieldLine       = "line"
	FieldText       = "text"
	FieldUDHRef     = "udh_ref"
	FieldUDHSeq     = "udh_seq"
	FieldUDHTotal   = "udh_total"
	FieldUCS2       = "ucs2"
	FieldReceivedAt = "received_at"
)

// Values of FieldKind.
const (
	KindReceipt = "receipt"
	KindMO      = "mo"
)

// Values of FieldStat. 1–3 are the recipient statuses they lead to (reached
// telecom, reached handset, not reached handset).
const (
	StatNone      = 0 // the receipt carried no recognisable state
	StatPending   = 1 // ACCEPTD / ENROUTE: not final
	StatDelivered = 2 // DELIVRD
	StatFailed    = 3 // UNDELIV, EXPIRED, REJECTD, DELETED, UNKNOWN: final failure
)

// Inbound is one entry of jobs.InboundStream: a delivery receipt or one part
// of an MO message.
type Inbound struct {
	Kind     string // KindReceipt or KindMO
	Operator string

	// Receipt fields.
	MsgID    string   // normalised receipted message id
	MsgIDAlt []string // further keys to try after MsgID
	Stat     int      // StatNone … StatFailed
	State    string   // DELIVRD, UNDELIV, …
	Err      string

	Mobile string // the handset (source_addr)
	Line   string // the sender line (dest_addr)

	// MO fields. A single-part MO has UDHRef 0, UDHSeq 1, UDHTotal 1.
	Text     string
	UDHRef   int
	UDHSeq   int
	UDHTotal int
	// UCS2 is the user data of one part of a concatenated UCS-2 MO as sent
	// (FieldUCS2, hexadecimal): the parts are decoded together once joined, as
	// a character may be split between two of them (half a surrogate pair in
	// each). Text is then this part alone decoded.
	UCS2 []byte

	ReceivedAt time.Time
}

// Multipart reports whether the entry is one part of a concatenated MO.
func (in Inbound) Multipart() bool { return in.UDHTotal > 1 }

// MsgIDKeys returns MsgID followed by MsgIDAlt: the keys to look a receipt
// up by, in order.
func (in Inbound) MsgIDKeys() []string {
	if in.MsgID == "" {
		return nil
	}
	return append([]string{in.MsgID}, in.MsgIDAlt...)
}

// Values renders the entry as XADD field/value pairs, all values strings: the
// entry as the previous release's workers read it.
func (in Inbound) Values() []any {
	v := make([]any, 0, 24)
	in.each(func(k, val string) { v = append(v, k, val) })
	return v
}

// Packed renders the entry as one XADD field, FieldPacked, holding what Values
// holds (packedFields). A packed entry costs Redis and the reader a fraction of
// one of fifteen fields; the previous release's workers cannot read it (settings
// 'inbound_format', send.InboundFormat).
func (in Inbound) Packed() []any {
	var f [len(packedFields)]string
	in.each(func(k, val string) { f[packedIndex(k)] = val })
	n := 1
	for _, s := range f {
		n += len(s) + 4
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(packedVersion)
	var digits [20]byte
	for _, s := range f {
		b.Write(strconv.AppendInt(digits[:0], int64(len(s)), 10))
		b.WriteByte(':')
		b.WriteString(s)
	}
	return []any{FieldPacked, b.String()}
}

// each calls add with every field of the entry, in the order Values has them.
func (in Inbound) each(add func(k, val string)) {
	add(FieldKind, in.Kind)
	add(FieldOperator, in.Operator)
	if in.Kind == KindReceipt {
		add(FieldMsgID, in.MsgID)
		if len(in.MsgIDAlt) > 0 {
			add(FieldMsgIDAlt, strings.Join(in.MsgIDAlt, ","))
		}
		add(FieldStat, strconv.Itoa(in.Stat))
		if in.State != "" {
			add(FieldState, in.State)
		}
		if in.Err != "" {
			add(FieldErr, in.Err)
		}
	}
	add(FieldMobile, in.Mobile)
	add(FieldLine, in.Line)
	if in.Kind == KindMO {
		add(FieldText, in.Text)
		if in.UDHTotal > 1 {
			add(FieldUDHRef, strconv.Itoa(in.UDHRef))
			add(FieldUDHSeq, strconv.Itoa(in.UDHSeq))
			add(FieldUDHTotal, strconv.Itoa(in.UDHTotal))
			if len(in.UCS2) > 0 {
				add(FieldUCS2, hex.EncodeToString(in.UCS2))
			}
		}
	}
	add(FieldReceivedAt, in.ReceivedAt.UTC().Format(time.RFC3339Nano))
}

// FieldPacked is the one field of a packed entry (Inbound.Packed): the format's
// version, packedVersion, then the value of each of packedFields in order, as its
// length in decimal, ':' and its bytes ("" for a field the entry does not have).
const FieldPacked = "p"

const packedVersion = '1'

// packedFields are the fields of a packed entry, in order.
var packedFields = [...]string{FieldKind, FieldOperator, FieldMsgID, FieldMsgIDAlt, FieldStat, FieldState, FieldErr,
	FieldMobile, FieldLine, FieldText, FieldUDHRef, FieldUDHSeq, FieldUDHTotal, FieldUCS2, FieldReceivedAt}

// packedIndex is field k's place in packedFields; -1 for none.
func packedIndex(k string) int {
	for i, f := range packedFields {
		if f == k {
			return i
		}
	}
	return -1
}

// unpack splits a packed entry's value into its fields.
func unpack(p string) (f [len(packedFields)]string, err error) {
	if p == "" || p[0] != packedVersion {
		return f, fmt.Errorf("%w: packed entry of an unknown format", ErrInbound)
	}
	p = p[1:]
	for i := range f {
		colon := strings.IndexByte(p, ':')
		if colon < 1 || colon > 6 {
			return f, fmt.Errorf("%w: packed field %s has no length", ErrInbound, packedFields[i])
		}
		n, err := strconv.Atoi(p[:colon])
		if err != nil || n < 0 || n > len(p)-colon-1 {
			return f, fmt.Errorf("%w: packed field %s: length %q", ErrInbound, packedFields[i], p[:colon])
		}
		f[i], p = p[colon+1:colon+1+n], p[colon+1+n:]
	}
	if p != "" {
		return f, fmt.Errorf("%w: %d bytes after the packed fields", ErrInbound, len(p))
	}
	return f, nil
}

// ErrInbound is matched by every error of ParseInbound.
var ErrInbound = errors.New("gateway: malformed inbound entry")

// ParseInbound reads the values of a jobs.InboundStream entry (as go-redis
// returns them in XMessage.Values): a packed entry (FieldPacked) or one field a
// value (Values).
func ParseInbound(values map[string]any) (Inbound, error) {
	if p, ok := values[FieldPacked]; ok {
		if len(values) != 1 {
			return Inbound{}, fmt.Errorf("%w: packed entry with %d other fields", ErrInbound, len(values)-1)
		}
		f, err := unpack(valueString(p))
		if err != nil {
			return Inbound{}, err
		}
		return parseInbound(func(k string) string {
			if i := packedIndex(k); i >= 0 {
				return f[i]
			}
			return ""
		})
	}
	return parseInbound(func(k string) string { return valueString(values[k]) })
}

// Unpacked is a packed entry's values one field a value, as Values holds them
// (its fields that are not empty), for reading by people (the quarantine); false
// when values is not a packed entry or cannot be unpacked.
func Unpacked(values map[string]any) (map[string]any, bool) {
	p, ok := values[FieldPacked]
	if !ok || len(values) != 1 {
		return nil, false
	}
	f, err := unpack(valueString(p))
	if err != nil {
		return nil, false
	}
	out := make(map[string]any, len(f))
	for i, v := range f {
		if v != "" {
			out[packedFields[i]] = v
		}
	}
	return out, true
}

// valueString is a field's value as go-redis returns it, as a string.
func valueString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// parseInbound reads an entry whose field k is str(k) ("" when absent).
func parseInbound(str func(k string) string) (Inbound, error) {
	num := func(k string, def int) (int, error) {
		s := str(k)
		if s == "" {
			return def, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%w: field %s=%q is not an integer", ErrInbound, k, s)
		}
		return n, nil
	}
	in := Inbound{
		Kind:     str(FieldKind),
		Operator: str(FieldOperator),
		Mobile:   str(FieldMobile),
		Line:     str(FieldLine),
	}
	if in.Operator == "" {
		return in, fmt.Errorf("%w: no %s", ErrInbound, FieldOperator)
	}
	at, err := time.Parse(time.RFC3339Nano, str(FieldReceivedAt))
	if err != nil {
		return in, fmt.Errorf("%w: field %s: %w", ErrInbound, FieldReceivedAt, err)
	}
	in.ReceivedAt = at
	switch in.Kind {
	case KindReceipt:
		in.MsgID = str(FieldMsgID)
		if in.MsgID == "" {
			return in, fmt.Errorf("%w: receipt without %s", ErrInbound, FieldMsgID)
		}
		if alt := str(FieldMsgIDAlt); alt != "" {
			in.MsgIDAlt = strings.Split(alt, ",")
		}
		if in.Stat, err = num(FieldStat, StatNone); err != nil {
			return in, err
		}
		if in.Stat < StatNone || in.Stat > StatFailed {
			return in, fmt.Errorf("%w: %s %d out of range", ErrInbound, FieldStat, in.Stat)
		}
		in.State, in.Err = str(FieldState), str(FieldErr)
	case KindMO:
		in.Text = str(FieldText)
		if in.UDHRef, err = num(FieldUDHRef, 0); err != nil {
			return in, err
		}
		if in.UDHSeq, err = num(FieldUDHSeq, 1); err != nil {
			return in, err
		}
		if in.UDHTotal, err = num(FieldUDHTotal, 1); err != nil {
			return in, err
		}
		if in.UDHTotal < 1 || in.UDHTotal > 255 || in.UDHSeq < 1 || in.UDHSeq > in.UDHTotal || in.UDHRef < 0 || in.UDHRef > 0xFFFF {
			return in, fmt.Errorf("%w: part %d of %d, reference %d", ErrInbound, in.UDHSeq, in.UDHTotal, in.UDHRef)
		}
		if u := str(FieldUCS2); u != "" {
			if in.UCS2, err = hex.DecodeString(u); err != nil {
				return in, fmt.Errorf("%w: field %s: %w", ErrInbound, FieldUCS2, err)
			}
		}
	default:
		return in, fmt.Errorf("%w: %s %q", ErrInbound, FieldKind, in.Kind)
	}
	return in, nil
}

// StatOf maps a receipt's delivery state to the FieldStat value.
func StatOf(r smpp.Receipt) int {
	if !r.HasState {
		return StatNone
	}
	switch r.State {
	case smpp.MessageDelivered:
		return StatDelivered
	case smpp.MessageEnroute, smpp.MessageAccepted:
		return StatPending
	default:
		return StatFailed
	}
}

// inboundFromDeliver builds the stream entry of a deliver_sm received on a
// bind of operator. ok is false for a receipt that carries no message id,
// which cannot be matched to anything.
func inboundFromDeliver(operator string, d smpp.Deliver) (Inbound, bool) {
	in := Inbound{
		Operator:   operator,
		Mobile:     d.Source.Addr,
		Line:       d.Dest.Addr,
		ReceivedAt: d.ReceivedAt,
	}
	if in.ReceivedAt.IsZero() {
		in.ReceivedAt = time.Now()
	}
	if d.IsReceipt {
		r, ok := smpp.ParseReceipt(d)
		if !ok {
			return in, false
		}
		in.Kind = KindReceipt
		keys := smpp.MessageIDKeys(r.MessageID)
		if len(keys) == 0 {
			return in, false
		}
		in.MsgID, in.MsgIDAlt = keys[0], keys[1:]
		in.Stat = StatOf(r)
		if r.HasState {
			in.State = r.State.String()
		}
		in.Err = CleanText(r.Err)
		return in, true
	}
	in.Kind = KindMO
	in.Text = CleanText(d.Text)
	in.UDHSeq, in.UDHTotal = 1, 1
	if u := d.UDH; u != nil && u.Concat && u.Total > 1 && u.Part >= 1 && u.Part <= u.Total {
		in.UDHRef, in.UDHSeq, in.UDHTotal = int(d.UDH.Ref), int(d.UDH.Part), int(d.UDH.Total)
		if d.UCS2() {
			in.UCS2 = bytes.Clone(d.UserData())
		}
	}
	return in, true
}

// CleanText is a text as PostgreSQL stores it: valid UTF-8 (each invalid
// sequence becomes U+FFFD) without NUL characters. A carrier's wrongly encoded
// byte costs one character, never the message.
func CleanText(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
}
