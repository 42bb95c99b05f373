package inbox

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
)

// MsgMessageNotFound is the 404 of a reply to a message the account does not have.
const MsgMessageNotFound = "پیام دریافتی یافت نشد"

// Reply is where a reply to a received message goes: from the line it came to, to
// its sender. Masked replies (to a number of the bank) are masked in reports as
// the message was in the inbox; the customer names the message, never the number.
type Reply struct {
	Line   string
	To     string
	Masked bool
}

// ReplyOf reads the reply to one of the account's received messages.
func (s *Service) ReplyOf(ctx context.Context, accountID, messageID int64) (Reply, error) {
	var r Reply
	err := s.pool.QueryRow(ctx, `SELECT line, sender, masked FROM inbox WHERE id = $1 AND account_id = $2`,
		messageID, accountID).Scan(&r.Line, &r.To, &r.Masked)
	if errors.Is(err, pgx.ErrNoRows) {
		return Reply{}, apperr.New(apperr.NotFound, MsgMessageNotFound)
	}
	if err != nil {
		return Reply{}, fmt.Errorf("inbox reply: %w", err)
	}
	return r, nil
}
