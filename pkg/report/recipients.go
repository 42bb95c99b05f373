package report

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/send"
)

// Public recipient statuses (spec §4), as the API and the Excel file show them.
const (
	StatusSent        = send.RcptSent        // ارسال شده
	StatusTelecom     = send.RcptTelecom     // رسیده به مخابرات
	StatusDelivered   = send.RcptDelivered   // رسیده به گوشی
	StatusUndelivered = send.RcptUndelivered // نرسیده به گوشی
	StatusBlacklisted = send.RcptBlacklisted // لیست سیاه
)

// Internal recipient statuses (migrations/0002_send_engine.up.sql).
const (
	internalQueued     = send.RcptQueued     // waiting for a gateway
	internalRejected   = send.RcptRejected   // never submitted: refused by the SMSC or the send was stopped
	internalSubmitting = send.RcptSubmitting // claimed by a gateway, outcome not known yet
)

// PublicStatus maps a stored recipient status to the public code. Queued and
// submitting recipients show as 0 (sent) with pending set: they are on their way.
// Rejected ones show as 3 (not reached handset) with rejected set: they never left,
// and were refunded.
func PublicStatus(stored int) (status int, pending, rejected bool) {
	switch stored {
	case internalQueued, internalSubmitting:
		return StatusSent, true, false
	case internalRejected:
		return StatusUndelivered, false, true
	}
	return stored, false, false
}

// storedStatuses is the inverse of PublicStatus: the stored statuses a public code
// filter matches.
func storedStatuses(public int) []int16 {
	switch public {
	case StatusSent:
		return []int16{StatusSent, internalQueued, internalSubmitting}
	case StatusUndelivered:
		return []int16{StatusUndelivered, internalRejected}
	}
	return []int16{int16(public)}
}

// Recipient is one row of a send's recipients list.
type Recipient struct {
	Mobile   string `json:"mobile"` // 98XXXXXXXXXX
	Operator string `json:"operator"`
	Parts    int    `json:"parts"`
	Status   int    `json:"status"` // public code 0-4
	// Pending marks a recipient not submitted yet (shown as 0).
	Pending bool `json:"pending,omitempty"`
	// Rejected marks a recipient refused before submission or cut by a stop (shown as 3).
	Rejected bool `json:"rejected,omitempty"`
	// Error is the SMSC's or the engine's reason, when there is one.
	Error string `json:"error,omitempty"`
	// Reason is why the message did not reach the handset, in Persian
	// (ReasonText): set for undelivered, blacklisted and refused recipients.
	Reason string `json:"reason,omitempty"`
	// PartStates is the state of each part, in order (list pages only; omitted
	// before the recipient was submitted): accepted, delivered, undelivered,
	// rejected (refused by the carrier: refunded), unsent (never submitted:
	// refunded) or unknown (its submit_sm_resp was lost: it may have been sent).
	PartStates []string  `json:"part_states,omitempty"`
	UpdatedAt  time.Time `json:"updated_at"`

	batch int32
	id    int64
}

// Recipients returns one page of a send's recipients in submission order, and the
// total; status, when set, is a public code 0-4. The send must be the account's.
func (s *Service) Recipients(ctx context.Context, accountID, sendID int64, status *int, page, limit int) ([]Recipient, int64, error) {
	page, limit = pageLimit(page, limit)
	if page > MaxRecipientPage {
		return nil, 0, apperr.Field("page", msgDeepPage)
	}
	if status != nil && (*status < StatusSent || *status > StatusBlacklisted) {
		return nil, 0, apperr.Field("status", msgRecipientStatus)
	}
	if err := s.owned(ctx, accountID, sendID); err != nil {
		return nil, 0, err
	}
	countSQL, listSQL := qRecipientsCount, qRecipients
	countArgs, listArgs := []any{sendID}, []any{sendID, limit, (page - 1) * limit}
	if status != nil {
		stored := storedStatuses(*status)
		countSQL, listSQL = qRecipientsCountByStatus, qRecipientsByStatus
		countArgs, listArgs = append(countArgs, stored), append(listArgs, stored)
	}
	var total int64
	if err := s.pool.QueryRow(ctx, countSQL, countArgs...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count recipients: %w", err)
	}
	if int64(page-1)*int64(limit) >= total {
		return []Recipient{}, total, nil
	}
	rows, err := s.pool.Query(ctx, listSQL, listArgs...)
	if err != nil {
		return nil, 0, fmt.Errorf("list recipients: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanRecipientParts)
	if err != nil {
		return nil, 0, fmt.Errorf("list recipients: %w", err)
	}
	return out, total, nil
}

// RecipientsPage is the recipients list of q: one page, or with a mobile the
// number's recipient alone (an empty page when the send did not have it).
func (s *Service) RecipientsPage(ctx context.Context, accountID int64, q RecipientQuery) ([]Recipient, int64, error) {
	if q.Mobile == "" {
		return s.Recipients(ctx, accountID, q.SendID, q.Status, q.Page, q.Limit)
	}
	r, err := s.RecipientOf(ctx, accountID, q.SendID, q.Mobile)
	if errors.Is(err, apperr.ErrNotFound) {
		if err := s.owned(ctx, accountID, q.SendID); err != nil {
			return nil, 0, err
		}
		return []Recipient{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return []Recipient{r}, 1, nil
}

// RecipientOf returns one recipient of the account's send by its mobile
// (98XXXXXXXXXX): the status of one message. A number the send did not have is
// not found.
func (s *Service) RecipientOf(ctx context.Context, accountID, sendID int64, mobile string) (Recipient, error) {
	if err := s.owned(ctx, accountID, sendID); err != nil {
		return Recipient{}, err
	}
	r, err := s.recipientRow(ctx, sendID, mobile)
	if !errors.Is(err, apperr.ErrNotFound) {
		return r, err
	}
	r, expanded, err := s.requested(ctx, sendID, mobile)
	if expanded {
		// The worker listed the recipients between the two reads: its row is there now.
		return s.recipientRow(ctx, sendID, mobile)
	}
	return r, err
}

// recipientRow is the send's first recipient row of the number, or not found.
func (s *Service) recipientRow(ctx context.Context, sendID int64, mobile string) (Recipient, error) {
	rows, err := s.pool.Query(ctx, qRecipientByMobile, sendID, mobile)
	if err != nil {
		return Recipient{}, fmt.Errorf("find recipient: %w", err)
	}
	r, err := pgx.CollectExactlyOneRow(rows, scanRecipientParts)
	if errors.Is(err, pgx.ErrNoRows) {
		return Recipient{}, apperr.ErrNotFound
	}
	if err != nil {
		return Recipient{}, fmt.Errorf("find recipient: %w", err)
	}
	return r, nil
}

// requested answers a number the request named that has no recipient row: pending
// while the worker has not listed the send's recipients yet (a moment after the
// accept); expanded is true when it has listed them since. Any other number is not
// found.
func (s *Service) requested(ctx context.Context, sendID int64, mobile string) (r Recipient, expanded bool, err error) {
	r = Recipient{Mobile: mobile, Status: StatusSent, Pending: true}
	err = s.pool.QueryRow(ctx, qRequested, sendID, mobile).Scan(&r.Parts, &r.UpdatedAt, &expanded)
	if errors.Is(err, pgx.ErrNoRows) {
		return Recipient{}, false, apperr.ErrNotFound
	}
	if err != nil {
		return Recipient{}, false, fmt.Errorf("find requested number: %w", err)
	}
	return r, expanded, nil
}

// owned answers not found unless the send is the account's.
func (s *Service) owned(ctx context.Context, accountID, sendID int64) error {
	var ok bool
	if err := s.pool.QueryRow(ctx, qSendOwned, sendID, accountID).Scan(&ok); err != nil {
		return fmt.Errorf("find send: %w", err)
	}
	if !ok {
		return apperr.ErrNotFound
	}
	return nil
}

// recipientReason is the Persian reason of a recipient that did not receive
// the message, empty for the others.
func recipientReason(r Recipient) string {
	if r.Rejected && r.Error == "" {
		return reasonRejected
	}
	if r.Status != StatusUndelivered && r.Status != StatusBlacklisted && r.Error == "" {
		return ""
	}
	return ReasonText(r.Status, r.Error)
}

// Per-part states of the report.
const (
	PartAccepted    = "accepted"
	PartDelivered   = "delivered"
	PartUndelivered = "undelivered"
	PartRejected    = "rejected"
	PartUnsent      = "unsent"
	PartUnknown     = "unknown"
)

// scanRecipientParts scans a list row: the recipient and its part states.
func scanRecipientParts(row pgx.CollectableRow) (Recipient, error) {
	var (
		r             Recipient
		parts, stored int16
		states        string
		recorded      []int32
	)
	if err := row.Scan(&r.batch, &r.id, &r.Mobile, &r.Operator, &parts, &stored, &r.Error, &r.UpdatedAt,
		&states, &recorded); err != nil {
		return Recipient{}, err
	}
	r.Parts = int(parts)
	r.Status, r.Pending, r.Rejected = PublicStatus(int(stored))
	r.Reason = recipientReason(r)
	r.PartStates = partStates(int(stored), int(parts), states, recorded)
	return r, nil
}

// partStates reads what the gateway and the receipts recorded of each part (states:
// one byte a part, migrations/0017 and 0197), with the receipts an earlier release
// recorded on the message ids (recorded: part*4 + stat). A part accepted whose
// receipt never came shows as the recipient ended when it was delivered.
func partStates(stored, parts int, states string, recorded []int32) []string {
	if stored == internalQueued || stored == internalSubmitting || stored == StatusBlacklisted || parts <= 0 {
		return nil
	}
	out := make([]string, parts)
	for i := range out {
		out[i] = PartUnknown
		switch {
		case stored == internalRejected:
			out[i] = PartRejected
		case i < len(states) && states[i] == 'r':
			out[i] = PartRejected
		case i < len(states) && states[i] == 'n':
			out[i] = PartUnsent
		case i < len(states) && states[i] == 'd':
			out[i] = PartDelivered
		case i < len(states) && states[i] == 'f':
			out[i] = PartUndelivered
		case i < len(states) && states[i] == 'a':
			out[i] = PartAccepted
			if stored == StatusDelivered {
				out[i] = PartDelivered
			}
		}
	}
	for _, v := range recorded {
		// A receipt an earlier release recorded on the message id.
		p, stat := int(v/4)-1, v%4
		if p >= 0 && p < parts && stat >= 2 {
			out[p] = [...]string{PartDelivered, PartUndelivered}[stat-2]
		}
	}
	return out
}
