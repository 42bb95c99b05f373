// Package pattern owns patterns (spec §3 Pattern, §5 Pattern rules): templated texts
// with %name% variables that an account defines, staff review (pkg/review) and the
// account then sends with per-recipient values through pkg/send as the types
// pattern, pattern_otp and pattern_transactional. A pattern keeps a stable code; its
// content lives in versions, and an edit of an approved pattern makes a new version
// that waits for review while the approved one keeps sending. Systemic patterns are
// the platform's own, defined by staff and read by every customer.
package pattern

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/send"
)

// Kinds of patterns and the SMS type each sends as (spec §3 SMS types).
const (
	KindOTP           = "otp"
	KindTransactional = "transactional"
	KindNormal        = "normal"
)

// SendType maps a pattern kind to its SMS type.
func SendType(kind string) string {
	switch kind {
	case KindOTP:
		return send.TypePatternOTP
	case KindTransactional:
		return send.TypePatternTransactional
	}
	return send.TypePattern
}

// Version statuses are the review statuses.
const (
	StatusPending  = review.Pending
	StatusApproved = review.Approved
	StatusRejected = review.Rejected
)

// ReviewKind is the back office queue of pattern versions.
const ReviewKind = "pattern"

// Persian messages beyond the rules.
const (
	MsgNotEditable = "الگوی سیستمی قابل ویرایش نیست"
	MsgNotApproved = "این الگو هنوز تأیید نشده است و قابل ارسال نیست"
	MsgCodeUnknown = "الگویی با این کد یافت نشد"
	// ReasonKindChanged tells the reviewer a version changes the approved kind (lane).
	ReasonKindChanged = "تغییر نوع الگو: "
)

// Pattern is one pattern with its current (latest) version and, when one exists,
// the approved version that sends.
type Pattern struct {
	ID        int64     `json:"id"`
	Code      string    `json:"code"`
	Kind      string    `json:"kind"`
	SMSType   string    `json:"sms_type"` // of the approved version's kind when there is one
	Shared    bool      `json:"shared"`
	Systemic  bool      `json:"systemic"`
	Status    string    `json:"status"` // of the latest version
	Reason    string    `json:"reason"` // the latest version's rejection reason
	Version   int       `json:"version"`
	Sendable  bool      `json:"sendable"` // an approved version exists
	Draft               // the latest version's content
	Approved  *Version  `json:"approved,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Versions (detail only), newest first, with their review history.
	Versions []Version `json:"versions,omitempty"`
}

// Version is one version of a pattern.
type Version struct {
	ID        int64      `json:"id"`
	Version   int        `json:"version"`
	Status    string     `json:"status"`
	Reason    string     `json:"reason"`
	Active    bool       `json:"active"`
	DecidedBy string     `json:"decided_by,omitempty"`
	DecidedAt *time.Time `json:"decided_at,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	// Kind is the version's kind: reviewed with its text, as it decides the lane.
	Kind string `json:"kind"`
	Draft
}

// Input creates or edits a pattern.
type Input struct {
	Draft
	Kind   string `json:"kind"`
	Shared bool   `json:"shared"`
}

// Service manages patterns.
type Service struct {
	pool  *pgxpool.Pool
	sends *send.Service
}

// New returns the pattern service; sends accepts the pattern sends.
func New(pool *pgxpool.Pool, sends *send.Service) *Service {
	return &Service{pool: pool, sends: sends}
}

// newCode is a pattern's code: 12 random lowercase letters and digits.
func newCode() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 12)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// Brand is the name a customer's patterns must carry (shown by the panel's editor):
// the account has no brand field, so its name is the brand (docs/patterns.md).
func (s *Service) Brand(ctx context.Context, accountID int64) (string, error) {
	return brand(ctx, s.pool, accountID)
}

func brand(ctx context.Context, q moderation.Querier, accountID int64) (string, error) {
	var name string
	if err := q.QueryRow(ctx, `SELECT name FROM accounts WHERE id = $1`, accountID).Scan(&name); err != nil {
		return "", fmt.Errorf("account brand: %w", err)
	}
	return name, nil
}

// checkInput validates an input against the rules.
func checkInput(in *Input, brand string) error {
	in.normalize()
	f := Check(in.Draft, brand)
	if in.Kind == "" {
		in.Kind = KindNormal
	}
	if in.Kind != KindOTP && in.Kind != KindTransactional && in.Kind != KindNormal {
		f.Add("kind", MsgKind)
	}
	return f.Err()
}

// Create stores a new pattern whose first version waits for review.
func (s *Service) Create(ctx context.Context, id acl.Identity, in Input, ip string) (Pattern, error) {
	var pid int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		name, err := brand(ctx, tx, id.AccountID)
		if err != nil {
			return err
		}
		if err := checkInput(&in, name); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO patterns (account_id, code, kind, shared, created_by)
			VALUES ($1, $2, $3, $4, nullif($5, 0)) RETURNING id`, id.AccountID, newCode(), in.Kind, in.Shared, id.UserID).Scan(&pid); err != nil {
			return fmt.Errorf("insert pattern: %w", err)
		}
		return s.addVersion(ctx, tx, id, pid, in, ip, audit.PatternCreate)
	})
	if err != nil {
		return Pattern{}, err
	}
	return s.Get(ctx, id, pid)
}

// Update edits a pattern. A pending or rejected latest version is replaced by a new
// one; an approved pattern keeps sending its approved version (with its kind) while
// the new version waits for review. The kind is part of the version (it decides the
// lane); only shared, who sees the pattern, changes at once.
func (s *Service) Update(ctx context.Context, id acl.Identity, pid int64, in Input, ip string) (Pattern, error) {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockOwn(ctx, tx, id, pid); err != nil {
			return err
		}
		name, err := brand(ctx, tx, id.AccountID)
		if err != nil {
			return err
		}
		if err := checkInput(&in, name); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE patterns SET kind = $2, shared = $3, updated_at = now() WHERE id = $1`,
			pid, in.Kind, in.Shared); err != nil {
			return fmt.Errorf("update pattern: %w", err)
		}
		// A version still waiting is superseded: it leaves the queue.
		if _, err := tx.Exec(ctx, `UPDATE pattern_versions SET status = 'rejected', reason = 'جایگزین با نسخه تازه', decided_at = now()
			WHERE pattern_id = $1 AND status = 'pending'`, pid); err != nil {
			return fmt.Errorf("supersede version: %w", err)
		}
		if err := withdrawPending(ctx, tx, pid); err != nil {
			return err
		}
		return s.addVersion(ctx, tx, id, pid, in, ip, audit.PatternUpdate)
	})
	if err != nil {
		return Pattern{}, err
	}
	return s.Get(ctx, id, pid)
}

// lockOwn locks a pattern of the caller's account that the caller may see.
func lockOwn(ctx context.Context, tx pgx.Tx, id acl.Identity, pid int64) error {
	var systemic bool
	err := tx.QueryRow(ctx, `SELECT systemic FROM patterns p WHERE p.id = $1 AND (`+visible+`) FOR UPDATE`,
		pid, id.AccountID, id.UserID, id.IsOwner).Scan(&systemic)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("lock pattern: %w", err)
	}
	if systemic {
		return apperr.New(apperr.Forbidden, MsgNotEditable)
	}
	return nil
}

// visible is the SQL rule of who sees a pattern (p, $2 account, $3 user, $4 owner):
// the account's owner sees all of its patterns, a colleague the shared ones and
// their own; systemic patterns are everyone's.
const visible = `p.systemic OR (p.account_id = $2 AND (p.shared OR $4::bool OR p.created_by = $3))`

// withdrawPending takes the pattern's pending versions out of the review queue.
func withdrawPending(ctx context.Context, tx pgx.Tx, pid int64) error {
	_, err := tx.Exec(ctx, `DELETE FROM review_items WHERE kind = $1 AND status = 'pending'
		AND subject_id IN (SELECT id FROM pattern_versions WHERE pattern_id = $2)`, ReviewKind, pid)
	if err != nil {
		return fmt.Errorf("withdraw pattern versions: %w", err)
	}
	return nil
}

// addVersion writes the next version of a pattern (its content and kind), queues
// it for review and audits the change.
func (s *Service) addVersion(ctx context.Context, tx pgx.Tx, id acl.Identity, pid int64, in Input, ip, action string) error {
	var vid int64
	var n int
	var prevKind string
	d := in.Draft
	if err := tx.QueryRow(ctx, `INSERT INTO pattern_versions (pattern_id, version, title, description, text, variables, created_by, kind)
		VALUES ($1, (SELECT coalesce(max(version), 0) + 1 FROM pattern_versions WHERE pattern_id = $1), $2, $3, $4, $5, nullif($6, 0), $7)
		RETURNING id, version, coalesce((SELECT a.kind FROM patterns p JOIN pattern_versions a ON a.id = p.active_version_id
			WHERE p.id = $1), '')`, pid, d.Title, d.Description, d.Text, d.Variables, id.UserID, in.Kind).Scan(&vid, &n, &prevKind); err != nil {
		return fmt.Errorf("insert pattern version: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE patterns SET latest_version_id = $2, updated_at = now() WHERE id = $1`, pid, vid); err != nil {
		return fmt.Errorf("pattern latest version: %w", err)
	}
	reasons := []string{"الگوی تازه"}
	if n > 1 {
		reasons = []string{"نسخه " + strconv.Itoa(n) + " الگو"}
	}
	if prevKind != "" && prevKind != in.Kind {
		reasons = append(reasons, ReasonKindChanged+prevKind+" ← "+in.Kind)
	}
	if err := review.Submit(ctx, tx, ReviewKind, id.AccountID, vid, reasons, d.Title+": "+d.Text); err != nil {
		return err
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID, Action: action,
		TargetType: "pattern", Target: strconv.FormatInt(pid, 10), IP: ip,
		Details: map[string]any{"version": n, "title": d.Title, "kind": in.Kind}})
}
