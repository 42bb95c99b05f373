package smpp

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// NormalizeMessageID returns the canonical form of a message id.
//
// SMSCs disagree on how they print message ids: many return a hex id in
// submit_sm_resp ("00A1B2") and the same number in decimal in the receipt
// text ("41394"), or the other way round, with varying case and leading
// zeros. The rule used here:
//
//   - NormalizeMessageID gives the canonical form of an id as it was written:
//     trimmed, lowercase, and, when every character is a hex digit, without
//     leading zeros (so it equals the hex spelling of its value read as hex).
//     Ids that are not hex (UUIDs with dashes, prefixed ids) are only trimmed
//     and lowercased.
//   - MessageIDKeys gives every canonical key the same message may have been
//     recorded under by the other side: the id read as hex, the id read as
//     decimal and converted to hex, and the id read as hex and printed in
//     decimal.
//
// Record NormalizeMessageID(submitRespID) and, on a receipt, look up each of
// MessageIDKeys(receiptID) in order, first match wins; this pairs a hex id
// with a decimal one in either direction. A decimal-looking id is ambiguous
// by nature, so a matcher should confirm a hit that came from a converted
// key against the destination address of the receipt.
func NormalizeMessageID(id string) string {
	s := asciiLower(strings.TrimSpace(strings.TrimRight(id, "\x00")))
	if !isHex(s) {
		return s
	}
	t := strings.TrimLeft(s, "0")
	if t == "" {
		return "0"
	}
	return t
}

// MessageIDKeys returns the distinct canonical keys under which id may have
// been recorded, NormalizeMessageID(id) first.
func MessageIDKeys(id string) []string {
	c := NormalizeMessageID(id)
	if c == "" {
		return nil
	}
	keys := []string{c}
	add := func(k string) {
		for _, e := range keys {
			if e == k {
				return
			}
		}
		keys = append(keys, k)
	}
	// Written in decimal here, recorded in hex elsewhere.
	if allDigits(c) {
		if v, err := strconv.ParseUint(c, 10, 64); err == nil {
			add(strconv.FormatUint(v, 16))
		}
	}
	// Written in hex here, recorded in decimal elsewhere.
	if isHex(c) && len(c) <= 16 {
		if v, err := strconv.ParseUint(c, 16, 64); err == nil {
			add(NormalizeMessageID(strconv.FormatUint(v, 10)))
		}
	}
	return keys
}

// UsableMessageID reports whether a normalised message id can be recorded and
// matched: valid UTF-8 without control characters, and at most 65 octets (the
// size SMPP 3.4 allows). An SMSC's id that is not is treated as no id at all.
func UsableMessageID(id string) bool {
	return id != "" && len(id) <= 65 && utf8.ValidString(id) &&
		!strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7F })
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return len(s) > 0
}
