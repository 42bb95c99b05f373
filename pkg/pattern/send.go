package pattern

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of a pattern send.
const (
	MsgCodeRequired      = "کد الگو را وارد کنید"
	MsgRecipientRequired = "گیرنده را وارد کنید"
	MsgRecipientsBoth    = "یا یک گیرنده با مقادیرش بفرستید یا فهرست گیرندگان، نه هر دو"
	MsgTooMany           = "حداکثر ۱۰۰۰ گیرنده در هر ارسال الگو"
	MsgLocalIDLong       = "شناسه محلی (local_id) حداکثر ۶۴ کاراکتر است"
)

// Recipient is one recipient of a pattern send with its own values.
type Recipient struct {
	Mobile string `json:"mobile"`
	Values Values `json:"values"`
}

// SendRequest is a pattern send: code and values and one recipient, or up to 1,000
// recipients each with their own values.
type SendRequest struct {
	Code       string      `json:"code"`
	Values     Values      `json:"values"`
	Recipient  string      `json:"recipient"`
	Recipients []Recipient `json:"recipients"`
	Sender     string      `json:"sender"`
	LocalID    string      `json:"local_id"`
	// Gradual spreads a normal pattern's send (refused for one-time codes and
	// transactional patterns: the fast lane never waits).
	Gradual *send.Gradual `json:"gradual,omitempty"`
}

// Sent is the answer to a pattern send.
type Sent struct {
	send.Accepted
	LocalID string `json:"local_id"`
	Type    string `json:"type"`
	Held    bool   `json:"held"`
}

// approvedVersion is the version a code sends.
type approvedVersion struct {
	id   int64
	kind string
	text string
	vars []Variable
}

// Send renders an approved pattern for each recipient and accepts it through
// pkg/send, priced and held like any other send; values that carry a link, a
// sensitive word or a long text hold the send for review.
func (s *Service) Send(ctx context.Context, id acl.Identity, r SendRequest, idemKey, ip string) (Sent, bool, error) {
	rcpts, err := r.recipients()
	if err != nil {
		return Sent{}, false, err
	}
	v, err := s.approved(ctx, id, strings.TrimSpace(r.Code))
	if err != nil {
		return Sent{}, false, err
	}
	rules, err := moderation.Load(ctx, s.pool)
	if err != nil {
		return Sent{}, false, err
	}
	req := send.Request{Type: SendType(v.kind), Sender: r.Sender, Text: v.text, LocalID: r.LocalID, Gradual: r.Gradual,
		Pattern: &send.PatternInfo{VersionID: v.id, Hash: r.hash()}}
	var held []string
	seen := make(map[string]bool, len(rcpts))
	for i, rc := range rcpts {
		vals, errs, h := CheckValues(v.vars, rc.Values, rules)
		if len(errs) > 0 {
			return Sent{}, false, valuesError(len(rcpts) > 1, i, errs)
		}
		mobile, ok := validate.NormalizeMobile(rc.Mobile)
		if !ok {
			return Sent{}, false, apperr.Field(recipientField(len(rcpts) > 1, i, "recipient"), send.MsgBadNumbers)
		}
		if seen[mobile] {
			continue // a repeated recipient gets one message, with its first values
		}
		seen[mobile] = true
		req.Numbers = append(req.Numbers, mobile)
		req.Texts = append(req.Texts, Render(v.text, vals))
		held = append(held, h...)
	}
	req.Pattern.Held = uniqueNonNil(held)
	req.Pattern.Summary = req.Texts[0]
	a, created, err := s.sends.Create(ctx, id, req, idemKey, ip)
	if err != nil {
		return Sent{}, false, err
	}
	return Sent{Accepted: a, LocalID: r.LocalID, Type: req.Type, Held: a.Status == send.StatusHeld}, created, nil
}

// recipients checks the request's shape and returns its recipients.
func (r SendRequest) recipients() ([]Recipient, error) {
	f := apperr.Fields{}
	if strings.TrimSpace(r.Code) == "" {
		f.Add("code", MsgCodeRequired)
	}
	if utf8.RuneCountInString(r.LocalID) > 64 {
		f.Add("local_id", MsgLocalIDLong)
	}
	single := strings.TrimSpace(r.Recipient) != ""
	switch {
	case single && len(r.Recipients) > 0:
		f.Add("recipients", MsgRecipientsBoth)
	case !single && len(r.Recipients) == 0:
		f.Add("recipient", MsgRecipientRequired)
	case len(r.Recipients) > send.MaxPatternRecipients:
		f.Add("recipients", MsgTooMany)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if single {
		return []Recipient{{Mobile: r.Recipient, Values: r.Values}}, nil
	}
	return r.Recipients, nil
}

// hash identifies the request for its Idempotency-Key.
func (r SendRequest) hash() string {
	b, _ := json.Marshal(r) // strings and maps of strings: never fails
	sum := sha256.Sum256(append([]byte("pattern:"), b...))
	return hex.EncodeToString(sum[:])
}

// approved reads the approved version of a pattern the caller may send (one of its
// own account's that it sees, or a systemic one) with the version's own kind: an
// edit of the kind waits for review like an edit of the text.
func (s *Service) approved(ctx context.Context, id acl.Identity, code string) (approvedVersion, error) {
	var v approvedVersion
	var vid *int64
	var text *string
	err := s.pool.QueryRow(ctx, `SELECT a.id, coalesce(a.kind, p.kind), a.text, coalesce(a.variables, '[]') FROM patterns p
		LEFT JOIN pattern_versions a ON a.id = p.active_version_id WHERE p.code = $1 AND (`+visible+`)`,
		code, id.AccountID, id.UserID, id.IsOwner).Scan(&vid, &v.kind, &text, &v.vars)
	if errors.Is(err, pgx.ErrNoRows) {
		return v, apperr.Field("code", MsgCodeUnknown)
	}
	if err != nil {
		return v, fmt.Errorf("read pattern %q: %w", code, err)
	}
	if vid == nil {
		return v, apperr.Field("code", MsgNotApproved)
	}
	v.id, v.text = *vid, *text
	return v, nil
}

// valuesError names the recipient whose values failed.
func valuesError(many bool, i int, errs []string) error {
	f := apperr.Fields{}
	field := recipientField(many, i, "values")
	for _, e := range errs {
		f.Add(field, e)
	}
	return f.Err()
}

func recipientField(many bool, i int, single string) string {
	if !many {
		return single
	}
	return "recipients." + strconv.Itoa(i)
}

func uniqueNonNil(in []string) []string {
	out := unique(in)
	if out == nil {
		return []string{}
	}
	return out
}
