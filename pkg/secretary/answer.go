package secretary

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/validate"
)

// Outcomes of an answered message (reader_entries.outcome).
const (
	OutReply    = "reply"    // secretary
	OutCorrect  = "correct"  // contest
	OutWrong    = "wrong"    // contest
	OutRepeat   = "repeat"   // contest, gift, poll (not changeable)
	OutVote     = "vote"     // poll
	OutChanged  = "changed"  // poll, vote changed
	OutInvalid  = "invalid"  // poll: no such option
	OutFeedback = "feedback" // feedback
	OutGift     = "gift"     // gift: a code given
	OutNoCode   = "nocode"   // gift: codes ran out
	OutVisit    = "visit"    // visit
)

// active is what matching needs of an active reader.
type active struct {
	id, phonebookID                int64
	kind, title                    string
	keywords                       []string
	reply, replyWrong, replyRepeat string
	answer                         string
	options                        []Option
	changeable                     bool
	// masked: the message's sender is a number of the bank (inbox.Stored.Masked),
	// never added to a phonebook.
	masked bool
}

// entry is one answered message.
type entry struct {
	outcome, reply string
}

// Answer matches new messages to their lines' active readers inside the inbox's
// store transaction and records each answered one with its reply (sent later by
// SendReplies). «11» and «12» are never answered.
func (s *Service) Answer(ctx context.Context, tx pgx.Tx, ms []inbox.Stored) error {
	cache := map[string][]active{}
	for _, m := range ms {
		if inbox.Keyword(m.Text) != "" {
			continue
		}
		key := strconv.FormatInt(m.AccountID, 10) + "|" + m.Line
		rs, ok := cache[key]
		if !ok {
			var err error
			if rs, err = loadActive(ctx, tx, m.AccountID, m.Line); err != nil {
				return err
			}
			cache[key] = rs
		}
		r, rest, ok := match(rs, inbox.Normalize(m.Text))
		if !ok {
			continue
		}
		r.masked = m.Masked
		e, err := r.apply(ctx, tx, m.Sender, rest)
		if err != nil {
			return err
		}
		if err := record(ctx, tx, r, m, e); err != nil {
			return err
		}
	}
	return nil
}

func loadActive(ctx context.Context, tx pgx.Tx, accountID int64, line string) ([]active, error) {
	rows, err := tx.Query(ctx, `SELECT id, coalesce(phonebook_id, 0), kind, title, keywords, reply, reply_wrong, reply_repeat,
		answer, options, changeable FROM readers WHERE account_id = $1 AND line = $2 AND status = 'active'
		AND (expires_at IS NULL OR expires_at > now()) ORDER BY cardinality(keywords) = 0, id`, accountID, line)
	if err != nil {
		return nil, fmt.Errorf("load readers: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (active, error) {
		var a active
		var opts []byte
		err := row.Scan(&a.id, &a.phonebookID, &a.kind, &a.title, &a.keywords, &a.reply, &a.replyWrong, &a.replyRepeat,
			&a.answer, &opts, &a.changeable)
		if err == nil {
			err = json.Unmarshal(opts, &a.options)
		}
		return a, err
	})
}

// match finds the reader of a normalised text: the first whose keyword the text
// is or starts with (rest is what follows), else the first without keywords.
func match(rs []active, text string) (active, string, bool) {
	for _, r := range rs {
		if len(r.keywords) == 0 {
			return r, text, true
		}
		for _, k := range r.keywords {
			if text == k {
				return r, "", true
			}
			if rest, ok := strings.CutPrefix(text, k+" "); ok {
				return r, rest, true
			}
		}
	}
	return active{}, "", false
}

// option returns the poll option (from 1) a normalised answer names (its number,
// title or one of its keywords), or 0.
func (r active) option(rest string) int {
	if n, err := strconv.Atoi(rest); err == nil && n >= 1 && n <= len(r.options) {
		return n
	}
	for i, o := range r.options {
		if rest == inbox.Normalize(o.Title) {
			return i + 1
		}
		for _, k := range o.Keywords {
			if rest == k {
				return i + 1
			}
		}
	}
	return 0
}

// render fills a reply's variables; {mobile} is masked for a masked sender.
func (r active) render(text, sender string, v map[string]string) string {
	mobile := "0" + strings.TrimPrefix(sender, "98")
	if r.masked { // the reply is shown to the account (entries, the reply send's report)
		mobile = bank.Mask(sender)
	}
	pairs := []string{"{mobile}", mobile, "{title}", r.title}
	for k, val := range v {
		pairs = append(pairs, "{"+k+"}", val)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// apply runs the reader's rule for one sender's message.
func (r active) apply(ctx context.Context, tx pgx.Tx, sender, rest string) (entry, error) {
	switch r.kind {
	case KindContest:
		return r.contest(ctx, tx, sender, rest)
	case KindPoll:
		return r.poll(ctx, tx, sender, rest)
	case KindGift:
		return r.gift(ctx, tx, sender)
	case KindVisit:
		n, err := r.count(ctx, tx, sender)
		return entry{OutVisit, r.render(r.reply, sender, map[string]string{"count": strconv.Itoa(n)})}, err
	case KindSecretary:
		if _, err := r.count(ctx, tx, sender); err != nil {
			return entry{}, err
		}
		return entry{OutReply, r.render(r.reply, sender, nil)}, r.addContact(ctx, tx, sender)
	}
	_, err := r.count(ctx, tx, sender)
	return entry{OutFeedback, r.render(r.reply, sender, nil)}, err
}

// count adds one to the sender's messages to the reader and returns the total.
func (r active) count(ctx context.Context, tx pgx.Tx, sender string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `INSERT INTO reader_participants (reader_id, sender, masked) VALUES ($1, $2, $3)
		ON CONFLICT (reader_id, sender) DO UPDATE SET visits = reader_participants.visits + 1, updated_at = now()
		RETURNING visits`, r.id, sender, r.masked).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count participant: %w", err)
	}
	return n, nil
}

func (r active) contest(ctx context.Context, tx pgx.Tx, sender, rest string) (entry, error) {
	correct := rest == r.answer
	var got bool
	err := tx.QueryRow(ctx, `INSERT INTO reader_participants (reader_id, sender, correct, masked) VALUES ($1, $2, $3, $4)
		ON CONFLICT (reader_id, sender) DO NOTHING RETURNING correct`, r.id, sender, correct, r.masked).Scan(&got)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return entry{OutRepeat, r.render(r.replyRepeat, sender, nil)}, nil
	case err != nil:
		return entry{}, fmt.Errorf("contest entry: %w", err)
	case correct:
		return entry{OutCorrect, r.render(r.reply, sender, nil)}, nil
	}
	return entry{OutWrong, r.render(r.replyWrong, sender, nil)}, nil
}

func (r active) poll(ctx context.Context, tx pgx.Tx, sender, rest string) (entry, error) {
	opt := r.option(rest)
	if opt == 0 {
		return entry{OutInvalid, r.render(r.replyWrong, sender, nil)}, nil
	}
	var inserted bool
	err := tx.QueryRow(ctx, `INSERT INTO reader_participants (reader_id, sender, option, masked) VALUES ($1, $2, $3, $5)
		ON CONFLICT (reader_id, sender) DO UPDATE SET option = excluded.option, updated_at = now() WHERE $4
		RETURNING xmax = 0`, r.id, sender, opt, r.changeable, r.masked).Scan(&inserted)
	if errors.Is(err, pgx.ErrNoRows) {
		return entry{OutRepeat, r.render(r.replyRepeat, sender, nil)}, nil
	}
	if err != nil {
		return entry{}, fmt.Errorf("poll vote: %w", err)
	}
	out := OutVote
	if !inserted {
		out = OutChanged
	}
	return entry{out, r.render(r.reply, sender, map[string]string{"option": r.options[opt-1].Title})}, nil
}

// gift gives a first-time sender one unused code: the code row is taken with
// FOR UPDATE SKIP LOCKED, so two senders at once never get the same one, and the
// participant row (primary key) means a sender never gets two.
func (r active) gift(ctx context.Context, tx pgx.Tx, sender string) (entry, error) {
	tag, err := tx.Exec(ctx, `INSERT INTO reader_participants (reader_id, sender, masked) VALUES ($1, $2, $3)
		ON CONFLICT (reader_id, sender) DO NOTHING`, r.id, sender, r.masked)
	if err != nil {
		return entry{}, fmt.Errorf("gift participant: %w", err)
	}
	if tag.RowsAffected() == 0 {
		var code string
		if err := tx.QueryRow(ctx, `SELECT code FROM reader_participants WHERE reader_id = $1 AND sender = $2`,
			r.id, sender).Scan(&code); err != nil {
			return entry{}, fmt.Errorf("gift code: %w", err)
		}
		return entry{OutRepeat, r.render(r.replyRepeat, sender, map[string]string{"code": code})}, nil
	}
	var code string
	err = tx.QueryRow(ctx, `UPDATE reader_codes SET sender = $2, masked = $3, given_at = now() WHERE id = (SELECT id FROM reader_codes
		WHERE reader_id = $1 AND sender IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING code`, r.id, sender, r.masked).Scan(&code)
	if errors.Is(err, pgx.ErrNoRows) {
		_, err = tx.Exec(ctx, `DELETE FROM reader_participants WHERE reader_id = $1 AND sender = $2`, r.id, sender)
		return entry{OutNoCode, r.render(r.replyWrong, sender, nil)}, err
	}
	if err != nil {
		return entry{}, fmt.Errorf("take gift code: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE reader_participants SET code = $3 WHERE reader_id = $1 AND sender = $2`, r.id, sender, code); err != nil {
		return entry{}, fmt.Errorf("gift participant: %w", err)
	}
	return entry{OutGift, r.render(r.reply, sender, map[string]string{"code": code})}, nil
}

// addContact puts the sender in the secretary's phonebook (once).
func (r active) addContact(ctx context.Context, tx pgx.Tx, sender string) error {
	if r.phonebookID == 0 || r.masked {
		return nil
	}
	_, err := tx.Exec(ctx, `WITH c AS (INSERT INTO contacts (account_id, phonebook_id, mobile)
		SELECT account_id, id, $2 FROM phonebooks WHERE id = $1 ON CONFLICT (phonebook_id, mobile) DO NOTHING RETURNING phonebook_id)
		UPDATE phonebooks SET members = members + 1 WHERE id IN (SELECT phonebook_id FROM c)`, r.phonebookID, sender)
	if err != nil {
		return fmt.Errorf("add secretary contact: %w", err)
	}
	return nil
}

// record stores the answered message and marks it in the inbox. A sender that is
// not a mobile (a short code) gets no reply.
func record(ctx context.Context, tx pgx.Tx, r active, m inbox.Stored, e entry) error {
	if _, ok := validate.NormalizeMobile(m.Sender); !ok {
		e.reply = ""
	}
	if _, err := tx.Exec(ctx, `INSERT INTO reader_entries (reader_id, account_id, inbox_id, sender, text, outcome, reply, masked)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (inbox_id) DO NOTHING`,
		r.id, m.AccountID, m.ID, m.Sender, m.Text, e.outcome, strings.TrimSpace(e.reply), m.Masked); err != nil {
		return fmt.Errorf("record entry: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE inbox SET reader_id = $2 WHERE id = $1`, m.ID, r.id); err != nil {
		return fmt.Errorf("mark inbox: %w", err)
	}
	return nil
}
