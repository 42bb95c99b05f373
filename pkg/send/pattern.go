package send

import "github.com/chapar/chapar/pkg/apperr"

// Pattern send types (spec §3 SMS types): each recipient's text is the approved
// pattern version rendered with that recipient's values (pkg/pattern builds them).
const (
	TypePattern              = "pattern"
	TypePatternOTP           = "pattern_otp"
	TypePatternTransactional = "pattern_transactional"
)

// MaxPatternRecipients is how many recipients one pattern send may carry.
const MaxPatternRecipients = 1000

// IsCritical reports whether a send of this type goes on the critical queues (the
// expand queue and the carriers' critical queues): one-time codes, the platform's
// own and its customers' OTP and transactional patterns.
func IsCritical(typ string) bool {
	switch typ {
	case TypeVerification, TypePatternOTP, TypePatternTransactional:
		return true
	}
	return false
}

// IsPattern reports whether typ is a pattern send type.
func IsPattern(typ string) bool {
	return typ == TypePattern || typ == TypePatternOTP || typ == TypePatternTransactional
}

// Reply send types (spec §3 SMS types): the answers of the secretaries and keyword
// readers (pkg/secretary), each recipient with its own rendered text.
const (
	TypeSecretary = "secretary" // received-message secretary
	TypePolls     = "polls"     // poll
	TypeMatches   = "matches"   // contest
	TypeIdea      = "idea"      // feedback
	TypeReader    = "reader"    // gift and visit
)

// IsReply reports whether typ is a secretary's reply type.
func IsReply(typ string) bool {
	switch typ {
	case TypeSecretary, TypePolls, TypeMatches, TypeIdea, TypeReader:
		return true
	}
	return false
}

// rowTexts reports whether each recipient of typ carries its own rendered text
// (patterns and replies: Numbers and Texts side by side).
func rowTexts(typ string) bool { return IsPattern(typ) || IsReply(typ) }

// PatternInfo is what pkg/pattern adds to a Request of a pattern type; it is never
// read from a client's JSON, so /send cannot forge a pattern send.
type PatternInfo struct {
	// VersionID is the approved pattern version the texts were rendered from.
	VersionID int64
	// Held are the reasons the send waits for review (values with links, sensitive
	// words, long values); empty: it goes out.
	Held []string
	// Summary is what the review queue shows of a held send.
	Summary string
	// Hash identifies the caller's request for its Idempotency-Key.
	Hash string
}

// checkPattern validates the recipients of a pattern request: Numbers are
// normalised mobiles and Texts their rendered texts, one each.
func checkPattern(r Request) ([]string, error) {
	if (r.Pattern == nil && !r.Reply) || len(r.Numbers) != len(r.Texts) {
		return nil, apperr.Field("type", MsgBadType)
	}
	if len(r.Numbers) == 0 {
		return nil, apperr.Field("numbers", MsgNumbersRequired)
	}
	if len(r.Numbers) > MaxPatternRecipients {
		return nil, apperr.Field("numbers", MsgTooManyNumbers)
	}
	for _, t := range r.Texts {
		if err := checkText(t); err != nil {
			return nil, err
		}
	}
	return r.Numbers, nil
}

// patternVersion is the pattern version a send renders (0: not a pattern send).
func (r Request) patternVersion() int64 {
	if r.Pattern == nil {
		return 0
	}
	return r.Pattern.VersionID
}

// priorityOf is the sends.priority of a type: critical ones are marked.
func priorityOf(typ string) string {
	if IsCritical(typ) {
		return "critical"
	}
	return "default"
}
