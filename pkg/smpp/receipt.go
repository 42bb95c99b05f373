package smpp

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"
)

// MessageState is the delivery state a receipt reports.
type MessageState uint8

// Message states. Enroute and Accepted are not final.
const (
	MessageUnknown MessageState = iota
	MessageEnroute
	MessageAccepted
	MessageDelivered
	MessageUndeliverable
	MessageExpired
	MessageRejected
	MessageDeleted
)

var messageStateNames = [...]string{
	MessageUnknown:       "UNKNOWN",
	MessageEnroute:       "ENROUTE",
	MessageAccepted:      "ACCEPTD",
	MessageDelivered:     "DELIVRD",
	MessageUndeliverable: "UNDELIV",
	MessageExpired:       "EXPIRED",
	MessageRejected:      "REJECTD",
	MessageDeleted:       "DELETED",
}

// String returns the conventional receipt stat text of the state.
func (s MessageState) String() string {
	if int(s) < len(messageStateNames) {
		return messageStateNames[s]
	}
	return fmt.Sprintf("MessageState(%d)", uint8(s))
}

// Final reports whether no further receipt is expected for the message.
// MessageUnknown is final as in SMPP (the SMSC lost track of the message).
func (s MessageState) Final() bool {
	return s != MessageEnroute && s != MessageAccepted
}

// messageStateFromTLV maps the SMPP 3.4 message_state values.
func messageStateFromTLV(v uint8) MessageState {
	switch v {
	case 0, 1: // SCHEDULED (SMPP 5.0), ENROUTE
		return MessageEnroute
	case 2:
		return MessageDelivered
	case 3:
		return MessageExpired
	case 4:
		return MessageDeleted
	case 5, 9: // UNDELIVERABLE, SKIPPED (SMPP 5.0)
		return MessageUndeliverable
	case 6:
		return MessageAccepted
	case 8:
		return MessageRejected
	default:
		return MessageUnknown
	}
}

// messageStateFromStat maps receipt "stat:" text, case-insensitively.
func messageStateFromStat(stat string) (MessageState, bool) {
	switch strings.ToUpper(strings.TrimSpace(stat)) {
	case "DELIVRD", "DELIVERED", "DELIVER":
		return MessageDelivered, true
	case "UNDELIV", "UNDELIVERABLE", "UNDELIVERED", "FAILED":
		return MessageUndeliverable, true
	case "EXPIRED":
		return MessageExpired, true
	case "REJECTD", "REJECTED":
		return MessageRejected, true
	case "DELETED":
		return MessageDeleted, true
	case "ACCEPTD", "ACCEPTED":
		return MessageAccepted, true
	case "ENROUTE", "SCHEDULED", "BUFFRED", "BUFFERED":
		return MessageEnroute, true
	case "UNKNOWN":
		return MessageUnknown, true
	}
	return MessageUnknown, false
}

// NetworkError is the network_error_code TLV (0x0423).
type NetworkError struct {
	Type uint8 // 1 ANSI-136, 2 IS-95, 3 GSM, ...
	Code uint16
}

// Receipt is a parsed delivery receipt.
type Receipt struct {
	// MessageID is the SMSC message id as received (receipted_message_id
	// TLV, else the text id). Match it with MessageIDKeys.
	MessageID string
	// State is the delivery state; HasState reports whether the receipt
	// carried one at all (a message_state TLV or a recognised stat text).
	State    MessageState
	HasState bool
	// Stat is the raw stat text, if any.
	Stat string
	// Err is the raw err text (usually three digits), if any.
	Err string
	// NetworkError is the network_error_code TLV, if present.
	NetworkError *NetworkError
	// Sub, Dlvrd, SubmitDate, DoneDate and Text are the raw text fields;
	// dates are YYMMDDhhmm[ss] (see ParseReceiptTime).
	Sub        string
	Dlvrd      string
	SubmitDate string
	DoneDate   string
	Text       string
}

// ParseReceipt extracts the receipt carried by d. TLVs win over the text:
// receipted_message_id (0x001E), message_state (0x0427) and
// network_error_code (0x0423) are read first, then the conventional text
//
//	id:IIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:...
//
// fills whatever is still missing. Keys are case-insensitive, may appear in
// any order, may be missing, and "submit_date"/"done_date" are accepted;
// "text:" takes the rest of the message. ok is false when d is not a receipt
// or carries no message id.
func ParseReceipt(d Deliver) (Receipt, bool) {
	if !d.IsReceipt && !looksLikeReceipt(&d) {
		return Receipt{}, false
	}
	var r Receipt
	if v, ok := d.TLVs[TagReceiptedMessageID]; ok {
		r.MessageID = strings.TrimSpace(strings.TrimRight(string(v), "\x00"))
	}
	if v, ok := d.TLVs[TagMessageState]; ok && len(v) >= 1 {
		r.State, r.HasState = messageStateFromTLV(v[0]), true
	}
	if v, ok := d.TLVs[TagNetworkErrorCode]; ok && len(v) >= 3 {
		r.NetworkError = &NetworkError{Type: v[0], Code: binary.BigEndian.Uint16(v[1:3])}
	}

	f := parseReceiptText(receiptText(d))
	if r.MessageID == "" {
		r.MessageID = f[rfID]
	}
	r.Stat = f[rfStat]
	if !r.HasState && r.Stat != "" {
		r.State, r.HasState = messageStateFromStat(r.Stat)
	}
	r.Err, r.Sub, r.Dlvrd, r.Text = f[rfErr], f[rfSub], f[rfDlvrd], f[rfText]
	r.SubmitDate, r.DoneDate = f[rfSubmitDate], f[rfDoneDate]
	return r, r.MessageID != ""
}

// receiptText returns the receipt text. Single-octet alphabets are read as
// ASCII, not through the GSM 03.38 table: SMSCs write receipt text in ASCII
// whatever data_coding says, and ids must survive unchanged.
func receiptText(d Deliver) string {
	ud := d.UserData()
	if alphabetOf(d.DataCoding) == alphaUCS2 {
		return d.Text
	}
	return string(ud)
}

// The receipt text's fields, by canonical key (parseReceiptText).
const (
	rfSubmitDate = iota
	rfDoneDate
	rfDlvrd
	rfStat
	rfText
	rfErr
	rfSub
	rfID
	rfCount
)

// receiptKeys are the recognised text keys, longest first; aliases map to
// the same field.
var receiptKeys = []struct {
	key   string
	field int
}{
	{"submit date", rfSubmitDate},
	{"submit_date", rfSubmitDate},
	{"done date", rfDoneDate},
	{"done_date", rfDoneDate},
	{"dlvrd", rfDlvrd},
	{"stat", rfStat},
	{"text", rfText},
	{"err", rfErr},
	{"sub", rfSub},
	{"id", rfID},
}

// parseReceiptText splits receipt text into its fields: a key (in any ASCII
// case, at the start or after a separator, spaces allowed before its colon)
// starts a field that runs to the next key; the first of a repeated key wins,
// and "text:" takes the rest. It allocates nothing: every receipt goes through it.
func parseReceiptText(s string) (f [rfCount]string) {
	type mark struct{ field, start, val int }
	var buf [16]mark
	marks := buf[:0]
	for i := 0; i < len(s); i++ {
		if i > 0 && !isReceiptSep(s[i-1]) {
			continue
		}
		for _, k := range receiptKeys {
			if !hasPrefixFoldASCII(s[i:], k.key) {
				continue
			}
			j := i + len(k.key)
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j < len(s) && s[j] == ':' {
				marks = append(marks, mark{field: k.field, start: i, val: j + 1})
				i = j
				break
			}
		}
		if len(marks) > 0 && marks[len(marks)-1].field == rfText {
			break
		}
	}
	var seen [rfCount]bool
	for n, m := range marks {
		end := len(s)
		if n+1 < len(marks) {
			end = marks[n+1].start
		}
		if !seen[m.field] {
			seen[m.field], f[m.field] = true, strings.TrimSpace(s[m.val:end])
		}
	}
	return f
}

// hasPrefixFoldASCII reports whether s begins with key, a lower-case ASCII
// string, ASCII letters of s compared without case.
func hasPrefixFoldASCII(s, key string) bool {
	if len(s) < len(key) {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != key[i] {
			return false
		}
	}
	return true
}

func isReceiptSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ';'
}

// asciiLower lowercases ASCII letters only, keeping byte offsets intact (s
// itself when it has none).
func asciiLower(s string) string {
	first := strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	if first < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:first])
	for i := first; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ParseReceiptTime parses a receipt date (YYMMDDhhmm or YYMMDDhhmmss) in loc,
// the SMSC's time zone (Asia/Tehran for Iranian carriers).
func ParseReceiptTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	layout := "0601021504"
	if len(s) == 12 {
		layout = "060102150405"
	}
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse receipt time %q: %w", s, err)
	}
	return t, nil
}
