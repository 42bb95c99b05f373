package support

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// Message is a reply to a request (the customer's, or staff's answer).
type Message struct {
	TicketID int64
	Text     string
	Files    []File
	IP       string
	// Action is the staff's move (StaffAnswer or StaffAsk); customers always reply.
	Action Action
}

// Rating is the rating of a staff answer or of a closed request.
type Rating struct {
	ID      int64  `json:"id"`
	Rating  int    `json:"rating"`
	Comment string `json:"comment"`
}

// lockTicket locks a request of the account (any account for staff) and returns its
// state and account.
func lockTicket(ctx context.Context, tx pgx.Tx, id acl.Identity, ticketID int64) (State, int64, error) {
	var st State
	var acct int64
	err := tx.QueryRow(ctx, `SELECT state, account_id FROM tickets WHERE id = $1 AND (account_id = $2 OR $3) FOR UPDATE`,
		ticketID, id.AccountID, id.Staff).Scan(&st, &acct)
	return st, acct, notFound(err, "lock ticket")
}

// move applies an action to a locked request and stores the new state.
func move(ctx context.Context, tx pgx.Tx, ticketID int64, from State, a Action) (State, error) {
	to, err := Next(from, a)
	if err != nil {
		return from, err
	}
	_, err = tx.Exec(ctx, `UPDATE tickets SET state = $2::smallint, updated_at = now(),
		closed_at = CASE WHEN $2::smallint = 4 THEN now() ELSE NULL END WHERE id = $1`, ticketID, int16(to))
	if err != nil {
		return from, fmt.Errorf("move ticket: %w", err)
	}
	return to, nil
}

// Reply adds the customer's message: the request waits for support again (2). A
// closed request refuses it with the «open a new request» notice.
func (s *Service) Reply(ctx context.Context, id acl.Identity, m Message) (Detail, error) {
	m.Action = CustomerReply
	d, _, err := s.converse(ctx, id, m, ActionTicketReply)
	return d, err
}

// converse writes a message and moves the request, then announces it. It returns the
// new interaction's id.
func (s *Service) converse(ctx context.Context, id acl.Identity, m Message, action string) (Detail, int64, error) {
	f := apperr.Fields{}
	text := cleanText(f, "text", m.Text, MaxText, MsgText, MsgTextLong)
	if err := f.Err(); err != nil {
		return Detail{}, 0, err
	}
	var acct, iid int64
	var from State
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) (err error) {
		if from, acct, err = lockTicket(ctx, tx, id, m.TicketID); err != nil {
			return err
		}
		_, err = Next(from, m.Action)
		return err
	})
	if err == nil {
		err = s.allow(ctx, id)
	}
	if err != nil {
		return Detail{}, 0, err
	}
	files, err := s.storeFiles(ctx, acct, m.Files)
	if err != nil {
		return Detail{}, 0, err
	}
	e := audit.Entry{AccountID: acct, Action: action, TargetType: "ticket", Target: strconv.FormatInt(m.TicketID, 10), IP: m.IP}
	err = s.inTx(ctx, id, e, func(tx pgx.Tx) error {
		st, _, err := lockTicket(ctx, tx, id, m.TicketID)
		if err != nil {
			return err
		}
		if _, err = move(ctx, tx, m.TicketID, st, m.Action); err != nil {
			return err
		}
		iid, err = addMessage(ctx, tx, id, m.TicketID, acct, id.Staff, text, files)
		return err
	})
	if err != nil {
		s.drop(ctx, files)
		return Detail{}, 0, err
	}
	d, err := s.announce(ctx, acl.Identity{AccountID: acct}, m.TicketID)
	return d, iid, err
}

// CloseTicket closes a request (the customer, or staff): state 4, after which it
// can be rated and takes no more messages.
func (s *Service) CloseTicket(ctx context.Context, id acl.Identity, ticketID int64, ip string) (Detail, error) {
	return s.setState(ctx, id, ticketID, Close, ActionTicketClose, ip)
}

// setState applies a state-only action (close, referral) and announces it.
func (s *Service) setState(ctx context.Context, id acl.Identity, ticketID int64, a Action, action, ip string) (Detail, error) {
	var acct int64
	e := audit.Entry{Action: action, TargetType: "ticket", Target: strconv.FormatInt(ticketID, 10), IP: ip,
		After: map[string]any{"action": a}}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		st, a2, err := lockTicket(ctx, tx, id, ticketID)
		if err != nil {
			return err
		}
		acct = a2
		if _, err := move(ctx, tx, ticketID, st, a); err != nil {
			return err
		}
		e.AccountID, e.UserID = acct, id.UserID
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Detail{}, err
	}
	return s.announce(ctx, acl.Identity{AccountID: acct}, ticketID)
}

// RateTicket rates a closed request of the account, once, 1–5.
func (s *Service) RateTicket(ctx context.Context, id acl.Identity, in Rating) (Detail, error) {
	if err := checkRating(in.Rating); err != nil {
		return Detail{}, err
	}
	comment := cleanText(apperr.Fields{}, "comment", in.Comment, 1000, "", "")
	e := audit.Entry{Action: ActionTicketRate, TargetType: "ticket", Target: strconv.FormatInt(in.ID, 10),
		After: map[string]any{"rating": in.Rating}}
	err := s.inTx(ctx, id, e, func(tx pgx.Tx) error {
		var st State
		var rated bool
		err := tx.QueryRow(ctx, `SELECT state, rating IS NOT NULL FROM tickets WHERE id = $1 AND account_id = $2 FOR UPDATE`,
			in.ID, id.AccountID).Scan(&st, &rated)
		switch err := notFound(err, "find ticket"); {
		case err != nil:
			return err
		case st != Closed:
			return apperr.New(apperr.Conflict, MsgRateOpen).WithCode("ticket-open")
		case rated:
			return apperr.New(apperr.Conflict, MsgRatedAlready).WithCode("rated")
		}
		_, err = tx.Exec(ctx, `UPDATE tickets SET rating = $2, rating_comment = $3, updated_at = now() WHERE id = $1`,
			in.ID, in.Rating, comment)
		return err
	})
	if err != nil {
		return Detail{}, err
	}
	return s.announce(ctx, id, in.ID)
}

// RateInteraction rates one staff answer of the account's request, once, 1–5.
func (s *Service) RateInteraction(ctx context.Context, id acl.Identity, in Rating) (Detail, error) {
	if err := checkRating(in.Rating); err != nil {
		return Detail{}, err
	}
	var ticketID int64
	e := audit.Entry{Action: ActionTicketRate, TargetType: "ticket_interaction", Target: strconv.FormatInt(in.ID, 10),
		After: map[string]any{"rating": in.Rating}}
	err := s.inTx(ctx, id, e, func(tx pgx.Tx) error {
		var staff, rated bool
		err := tx.QueryRow(ctx, `SELECT ticket_id, staff, rating IS NOT NULL FROM ticket_interactions
			WHERE id = $1 AND account_id = $2 FOR UPDATE`, in.ID, id.AccountID).Scan(&ticketID, &staff, &rated)
		switch err := notFound(err, "find interaction"); {
		case err != nil:
			return err
		case !staff:
			return apperr.New(apperr.Conflict, MsgRateStaff).WithCode("rate-staff-only")
		case rated:
			return apperr.New(apperr.Conflict, MsgRatedAlready).WithCode("rated")
		}
		_, err = tx.Exec(ctx, `UPDATE ticket_interactions SET rating = $2 WHERE id = $1`, in.ID, in.Rating)
		return err
	})
	if err != nil {
		return Detail{}, err
	}
	return s.announce(ctx, id, ticketID)
}
