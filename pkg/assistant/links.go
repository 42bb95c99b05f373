package assistant

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A tracked link is written {link:ID} and sent as a short link of a fixed
// length (pkg/shortlink). So that every count of parts reads the length sent,
// each placeholder is padded with '_' (one unit in GSM-7 and in UCS-2, like the
// link's own characters) to that length while the assistant works, and the
// padding is taken off the reply.
var (
	linkSlot   = regexp.MustCompile(`\{link:\d{1,18}\}`)
	paddedSlot = regexp.MustCompile(`(\{link:\d{1,18}\})_*`)
)

// padLinks pads every placeholder of text to sent characters (0: no change).
func padLinks(text string, sent int) string {
	if sent <= 0 {
		return text
	}
	return linkSlot.ReplaceAllStringFunc(text, func(p string) string {
		return p + strings.Repeat("_", max(0, sent-utf8.RuneCountInString(p)))
	})
}

// unpadLinks takes the padding of padLinks off.
func unpadLinks(text string) string { return paddedSlot.ReplaceAllString(text, "$1") }
