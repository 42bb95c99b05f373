package links

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/shortlink"
)

// Review statuses of a tracked link: its target is moderated when it is made. A
// link whose target the moderation rules would hold waits for staff (pending);
// only an approved link redirects or goes into a text.
const (
	StatusPending  = review.Pending
	StatusApproved = review.Approved
	StatusRejected = review.Rejected
)

// ReviewKind is the back office queue of tracked link targets.
const ReviewKind = "link"

// Persian messages of link review.
const (
	MsgLinkPending  = "لینک ردیابی به‌کاررفته در متن هنوز بررسی و تأیید نشده است؛ پس از تأیید پشتیبانی می‌توانید آن را ارسال کنید"
	MsgLinkRejected = "لینک ردیابی به‌کاررفته در متن در بررسی رد شده است و قابل ارسال نیست"
	MsgNotPending   = "این لینک در انتظار بررسی نیست"
)

// moderate decides a new link's status: the moderation rules read its target as
// if it were a message text (sensitive words, links); any reason holds it for
// review with those reasons.
func moderate(ctx context.Context, q Row, url string) (string, []string, error) {
	rules, err := moderation.Load(ctx, q)
	if err != nil {
		return "", nil, err
	}
	reasons := (moderation.Rules{Words: rules.Words, Links: rules.Links}).Check(moderation.Send{Text: url})
	if len(reasons) > 0 {
		return StatusPending, reasons, nil
	}
	return StatusApproved, nil, nil
}

// Targets are the target addresses of the tracked links a text holds (those of the
// account), for the moderation of a send: a link's target is judged as if it were
// written in the text. A text without placeholders answers without a query.
func Targets(ctx context.Context, q Row, accountID int64, text string) ([]string, error) {
	ids := shortlink.LinkIDs(text)
	if len(ids) == 0 {
		return nil, nil
	}
	var urls []string
	err := q.QueryRow(ctx, `SELECT coalesce(array_agg(url ORDER BY id), '{}') FROM tracked_links
		WHERE account_id = $1 AND id = ANY($2)`, accountID, ids).Scan(&urls)
	if err != nil {
		return nil, fmt.Errorf("tracked link targets: %w", err)
	}
	return urls, nil
}

// WithTargets is text followed by the targets of its tracked links, one a line:
// what the moderation rules read for a send.
func WithTargets(ctx context.Context, q Row, accountID int64, text string) (string, error) {
	urls, err := Targets(ctx, q, accountID, text)
	if err != nil || len(urls) == 0 {
		return text, err
	}
	return text + "\n" + strings.Join(urls, "\n"), nil
}

// ReviewQueue is the back office queue of tracked link targets (a review.Handler).
func (s *Service) ReviewQueue() review.Handler { return queue{} }

type queue struct{}

// Kind returns ReviewKind, the tracked links' queue.
func (queue) Kind() string { return ReviewKind }

// Title returns the queue's Persian name in the back office menu.
func (queue) Title() string { return "لینک‌های ردیابی در انتظار بررسی" }

// Decide approves a link (it redirects and may go into texts from now on) or
// rejects it with the reason the customer sees on the link.
func (queue) Decide(ctx context.Context, tx pgx.Tx, it review.Item, d review.Decision) (func(context.Context), error) {
	_, err := review.DecideRow(ctx, tx, it, d, review.Row{Table: "tracked_links", ReasonColumn: "review_note",
		Pending: StatusPending, Approved: StatusApproved, Rejected: StatusRejected,
		Decided: apperr.New(apperr.Conflict, MsgNotPending).WithCode("not-pending")})
	return nil, err
}
