package support

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// Ticket is a request (ticket or suggestion) as lists show it.
type Ticket struct {
	ID            int64      `json:"id"`
	Number        int64      `json:"number"`
	Kind          string     `json:"kind"`
	CategoryID    *int64     `json:"category_id"`
	Category      string     `json:"category"`
	SubCategoryID *int64     `json:"sub_category_id"`
	SubCategory   string     `json:"sub_category"`
	Title         string     `json:"title"`
	State         State      `json:"state"`
	StateLabel    string     `json:"state_label"`
	Rating        *int16     `json:"rating"`
	RatingComment string     `json:"rating_comment"`
	AssignedTo    *int64     `json:"assigned_to"`
	AssignedName  string     `json:"assigned_name"`
	AccountID     int64      `json:"account_id"`
	AccountName   string     `json:"account_name"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	ClosedAt      *time.Time `json:"closed_at"`
}

// Interaction is one message of the conversation.
type Interaction struct {
	ID          int64        `json:"id"`
	Staff       bool         `json:"staff"`
	Author      string       `json:"author"`
	Text        string       `json:"text"`
	Rating      *int16       `json:"rating"`
	CreatedAt   time.Time    `json:"created_at"`
	Attachments []Attachment `json:"attachments"`
}

// Detail is a request with its conversation; Notice is the closed request's
// «open a new request» line.
type Detail struct {
	Ticket
	Interactions []Interaction `json:"interactions"`
	Notice       string        `json:"notice"`
}

// NewRequest is the create form of a ticket or suggestion.
type NewRequest struct {
	Kind          string
	CategoryID    int64
	SubCategoryID int64
	Title         string
	Text          string
	Files         []File
	IP            string
}

// Filter narrows a list of requests; staff use all of it, customers Kind, State and Search.
type Filter struct {
	Kind       string
	State      State
	Search     string
	CategoryID int64
	AccountID  int64
	// AssignedTo: 0 any, -1 nobody, else that staff user.
	AssignedTo int64
	From, To   time.Time
}

const ticketCols = `t.id, t.number, t.kind, t.category_id, coalesce(c.title, ''), t.sub_category_id, coalesce(sc.title, ''),
	t.title, t.state, t.rating, t.rating_comment, t.assigned_to, coalesce(nullif(u.name, ''), u.username, ''), t.account_id,
	a.name, t.created_at, t.updated_at, t.closed_at`

const ticketFrom = ` FROM tickets t JOIN accounts a ON a.id = t.account_id
	LEFT JOIN ticket_categories c ON c.id = t.category_id LEFT JOIN ticket_categories sc ON sc.id = t.sub_category_id
	LEFT JOIN users u ON u.id = t.assigned_to`

func scanTicket(r pgx.CollectableRow) (Ticket, error) {
	var t Ticket
	err := r.Scan(&t.ID, &t.Number, &t.Kind, &t.CategoryID, &t.Category, &t.SubCategoryID, &t.SubCategory, &t.Title, &t.State,
		&t.Rating, &t.RatingComment, &t.AssignedTo, &t.AssignedName, &t.AccountID, &t.AccountName, &t.CreatedAt, &t.UpdatedAt, &t.ClosedAt)
	t.StateLabel = t.State.Label()
	return t, err
}

// List returns a page of requests, newest activity first: the caller's account's,
// or (staff) every account's narrowed by the filter.
func (s *Service) List(ctx context.Context, id acl.Identity, f Filter, p validate.Paging) ([]Ticket, int64, error) {
	if !id.Staff {
		f.AccountID = id.AccountID
	}
	where := ` WHERE ($1 = 0 OR t.account_id = $1) AND ($2 = '' OR t.kind = $2) AND ($3 = 0 OR t.state = $3)
		AND ($4 = '%%' OR t.title ILIKE $4 OR t.number::text = $5) AND ($6 = 0 OR t.category_id = $6 OR t.sub_category_id = $6)
		AND ($7 = 0 OR ($7 = -1 AND t.assigned_to IS NULL) OR t.assigned_to = $7)
		AND ($8::timestamptz IS NULL OR t.created_at >= $8) AND ($9::timestamptz IS NULL OR t.created_at < $9)`
	args := []any{f.AccountID, f.Kind, int16(f.State), db.Contains(f.Search), validate.ToLatinDigits(f.Search), f.CategoryID,
		f.AssignedTo, timeOrNil(f.From), timeOrNil(f.To)}
	return db.Page(ctx, s.pool, "tickets", ticketCols, ticketFrom+where, "t.updated_at DESC, t.id DESC", args, p.Limit, p.Page, scanTicket)
}

func timeOrNil(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// Show returns one request with its conversation: of the caller's account, or any
// account's for staff.
func (s *Service) Show(ctx context.Context, id acl.Identity, ticketID int64) (Detail, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+ticketCols+ticketFrom+` WHERE t.id = $1 AND (t.account_id = $2 OR $3)`,
		ticketID, id.AccountID, id.Staff)
	if err != nil {
		return Detail{}, fmt.Errorf("show ticket: %w", err)
	}
	t, err := pgx.CollectExactlyOneRow(rows, scanTicket)
	if err := notFound(err, "show ticket"); err != nil {
		return Detail{}, err
	}
	d := Detail{Ticket: t}
	if t.State == Closed {
		d.Notice = MsgClosed
	}
	d.Interactions, err = s.interactions(ctx, ticketID)
	return d, err
}

func (s *Service) interactions(ctx context.Context, ticketID int64) ([]Interaction, error) {
	rows, err := s.pool.Query(ctx, `SELECT i.id, i.staff, CASE WHEN i.staff THEN 'پشتیبانی چاپار' ELSE coalesce(nullif(u.name, ''), u.username, '') END,
		i.text, i.rating, i.created_at, coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'content_type', a.content_type,
		'size', a.size) ORDER BY a.id) FILTER (WHERE a.id IS NOT NULL), '[]')
		FROM ticket_interactions i LEFT JOIN users u ON u.id = i.user_id LEFT JOIN ticket_attachments a ON a.interaction_id = i.id
		WHERE i.ticket_id = $1 GROUP BY i.id, u.name, u.username ORDER BY i.id`, ticketID)
	if err != nil {
		return nil, fmt.Errorf("ticket interactions: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Interaction, error) {
		var i Interaction
		err := r.Scan(&i.ID, &i.Staff, &i.Author, &i.Text, &i.Rating, &i.CreatedAt, &i.Attachments)
		return i, err
	})
	if err != nil {
		return nil, fmt.Errorf("ticket interactions: %w", err)
	}
	return out, nil
}

// Create opens a ticket or suggestion request with its first message and
// attachments; it waits for support (state 2).
func (s *Service) Create(ctx context.Context, id acl.Identity, in NewRequest) (Detail, error) {
	title, text, err := s.checkNew(ctx, &in)
	if err != nil {
		return Detail{}, err
	}
	if err := s.allow(ctx, id); err != nil {
		return Detail{}, err
	}
	files, err := s.storeFiles(ctx, id.AccountID, in.Files)
	if err != nil {
		return Detail{}, err
	}
	var ticketID int64
	e := audit.Entry{Action: ActionTicketCreate, TargetType: "ticket", IP: in.IP, After: map[string]any{"kind": in.Kind, "title": title}}
	err = s.inTx(ctx, id, e, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO tickets (account_id, kind, category_id, sub_category_id, title, state, created_by)
			VALUES ($1, $2, nullif($3, 0), nullif($4, 0), $5, $6, nullif($7, 0)) RETURNING id`, id.AccountID, in.Kind, in.CategoryID,
			in.SubCategoryID, title, WaitingSupport, id.UserID).Scan(&ticketID); err != nil {
			return fmt.Errorf("insert ticket: %w", err)
		}
		_, err := addMessage(ctx, tx, id, ticketID, id.AccountID, false, text, files)
		return err
	})
	if err != nil {
		s.drop(ctx, files)
		return Detail{}, err
	}
	return s.announce(ctx, id, ticketID)
}

// checkNew validates the create form: kind, title, text and the category (required
// for a ticket) with a sub-category under it.
func (s *Service) checkNew(ctx context.Context, in *NewRequest) (title, text string, err error) {
	f := apperr.Fields{}
	if in.Kind != KindSuggestion {
		in.Kind = KindTicket
	}
	title = cleanText(f, "title", in.Title, MaxTitle, MsgTitle, MsgTitleLong)
	text = cleanText(f, "text", in.Text, MaxText, MsgText, MsgTextLong)
	if in.CategoryID == 0 && in.Kind == KindTicket {
		f.Add("category_id", MsgCategory)
	} else if in.CategoryID != 0 {
		if msg := s.checkCategory(ctx, in.CategoryID, in.SubCategoryID); msg != "" {
			f.Add("sub_category_id", msg)
		}
	}
	return title, text, f.Err()
}

func (s *Service) checkCategory(ctx context.Context, cat, sub int64) string {
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ticket_categories WHERE id = $1 AND parent_id IS NULL)
		AND ($2 = 0 OR EXISTS (SELECT 1 FROM ticket_categories WHERE id = $2 AND parent_id = $1))`, cat, sub).Scan(&ok)
	switch {
	case err != nil || !ok && sub == 0:
		return MsgCategory
	case !ok:
		return MsgSubCategory
	}
	return ""
}

// addMessage writes one interaction with its attachments and returns its id.
func addMessage(ctx context.Context, tx pgx.Tx, id acl.Identity, ticketID, accountID int64, staff bool, text string, files []Attachment) (int64, error) {
	var iid int64
	if err := tx.QueryRow(ctx, `INSERT INTO ticket_interactions (ticket_id, account_id, user_id, staff, text)
		VALUES ($1, $2, nullif($3, 0), $4, $5) RETURNING id`, ticketID, accountID, id.UserID, staff, text).Scan(&iid); err != nil {
		return 0, fmt.Errorf("insert interaction: %w", err)
	}
	return iid, saveAttachments(ctx, tx, accountID, iid, files)
}

// announce publishes ticket.updated to the request's account and returns the detail.
func (s *Service) announce(ctx context.Context, id acl.Identity, ticketID int64) (Detail, error) {
	d, err := s.Show(ctx, acl.Identity{AccountID: id.AccountID, Staff: true}, ticketID)
	if err != nil {
		return d, err
	}
	if s.Live != nil {
		_ = s.Live.Publish(context.WithoutCancel(ctx), d.AccountID, "ticket.updated", map[string]any{"id": d.ID, "number": d.Number,
			"kind": d.Kind, "state": d.State, "state_label": d.StateLabel})
	}
	return d, nil
}

// StateCount is how many of the account's requests are in one state.
type StateCount struct {
	State State  `json:"state"`
	Label string `json:"label"`
	Count int64  `json:"count"`
}

// Summary counts the account's tickets and suggestions by state, every state listed.
func (s *Service) Summary(ctx context.Context, id acl.Identity) ([]StateCount, error) {
	counts := map[State]int64{}
	rows, err := s.pool.Query(ctx, `SELECT state, count(*) FROM tickets WHERE account_id = $1 GROUP BY state`, id.AccountID)
	if err != nil {
		return nil, fmt.Errorf("ticket summary: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var st State
		var n int64
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("ticket summary: %w", err)
		}
		counts[st] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ticket summary: %w", err)
	}
	out := make([]StateCount, 0, len(States))
	for _, st := range States {
		out = append(out, StateCount{State: st, Label: st.Label(), Count: counts[st]})
	}
	return out, nil
}
