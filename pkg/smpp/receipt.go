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
		r.MessageID = f["id"]
	}
	r.Stat = f["stat"]
	if !r.HasState && r.Stat != "" {
		r.State, r.HasState = messageStateFromStat(r.Stat)
	}
	r.Err, r.Sub, r.Dlvrd, r.Text = f["err"], f["sub"], f["dlvrd"], f["text"]
	r.SubmitDate, r.DoneDate = f["submit date"], f["done date"]
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

// receiptKeys are the recognised text keys, longest first; aliases map to
// the canonical key.
var receiptKeys = []struct{ key, canon string }{
	{"submit date", "submit date"},
	{"submit_date", "submit date"},
	{"done date", "done date"},
	{"done_date", "done date"},
	{"dlvrd", "dlvrd"},
	{"stat", "stat"},
	{"text", "text"},
	{"err", "err"},
	{"sub", "sub"},
	{"id", "id"},
}

// parseReceiptText splits receipt text into its fields.
func parseReceiptText(s string) map[string]string {
	lower := asciiLower(s)
	type mark struct {
		canon      string
		start, val int
	}
	var marks []mark
	for i := 0; i < len(lower); i++ {
		if i > 0 && !isReceiptSep(lower[i-1]) {
			continue
		}
		for _, k := range receiptKeys {
			if !strings.HasPrefix(lower[i:], k.key) {
				continue
			}
			j := i + len(k.key)
			for j < len(lower) && lower[j] == ' ' {
				j++
			}
			if j < len(lower) && lower[j] == ':' {
				marks = append(marks, mark{canon: k.canon, start: i, val: j + 1})
				i = j
				break
			}
		}
		if len(marks) > 0 && marks[len(marks)-1].canon == "text" {
			break
		}
	}
	out := make(map[string]string, len(marks))
	for n, m := range marks {
		end := len(s)
		if n+1 < len(marks) {
			end = marks[n+1].start
		}
		if _, dup := out[m.canon]; !dup {
			out[m.canon] = strings.TrimSpace(s[m.val:end])
		}
	}
	return out
}

func isReceiptSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ';'
}

// asciiLower lowercases ASCII letters only, keeping byte offsets intact.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
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
