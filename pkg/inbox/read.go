package inbox

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// Limits of a Since read: DefaultLimit messages unless asked, at most MaxLimit.
const (
	DefaultLimit = 100
	MaxLimit     = 500
)

// MsgAfterID is the 422 of an after_id that is not a whole number of zero or more.
const MsgAfterID = "after_id باید عددی صحیح و نامنفی باشد"

// Message is one received message as the API shows it.
type Message struct {
	ID         int64     `json:"id"`
	Sender     string    `json:"sender"` // the handset, 98XXXXXXXXXX (masked 0912*****67 for a number of the bank)
	Line       string    `json:"line"`   // the account's line it was sent to
	Text       string    `json:"text"`
	Operator   string    `json:"operator"`
	ReceivedAt time.Time `json:"received_at"`
}

// SinceQuery is a parsed GET /inbox/since: the messages after AfterID, Limit of them.
type SinceQuery struct {
	AfterID int64
	Limit   int
}

// ParseSince reads after_id (empty is 0: from the first message) and limit.
func ParseSince(q url.Values) (SinceQuery, error) {
	p, err := validate.ParsePaging(url.Values{validate.FieldLimit: q[validate.FieldLimit]}, DefaultLimit, MaxLimit)
	if err != nil {
		return SinceQuery{}, err
	}
	sq := SinceQuery{Limit: p.Limit}
	if s := strings.TrimSpace(q.Get("after_id")); s != "" {
		n, err := strconv.ParseInt(validate.NormalizeDigits(s), 10, 64)
		if err != nil || n < 0 {
			return SinceQuery{}, apperr.Field("after_id", MsgAfterID)
		}
		sq.AfterID = n
	}
	return sq, nil
}

// Since returns the account's received messages with an id above q.AfterID, oldest
// first: an integration keeps the last id it read and asks again from there, so it
// sees each message once even while new ones arrive.
func (s *Service) Since(ctx context.Context, accountID int64, q SinceQuery) ([]Message, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, shown_mobile(masked, sender), line, text, operator, received_at FROM inbox
		WHERE account_id = $1 AND id > $2 ORDER BY id LIMIT $3`, accountID, q.AfterID, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("read inbox: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Message])
	if err != nil {
		return nil, fmt.Errorf("read inbox: %w", err)
	}
	return out, nil
}
