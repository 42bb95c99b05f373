package pattern

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// MsgBadFilter refuses an unknown status or kind filter.
const MsgBadFilter = "فیلتر انتخاب‌شده معتبر نیست"

// Filter selects the patterns of a list.
type Filter struct {
	Status   string // pending, approved, rejected ("" all)
	Kind     string // otp, transactional, normal ("" all)
	Search   string // in the title, code and text
	Systemic bool   // the platform's patterns instead of the account's
	Sendable bool   // only patterns with an approved version
	Page     validate.Paging
}

// patternCols reads a pattern with its latest version (l) and approved one (a).
const patternCols = `p.id, p.code, p.kind, p.shared, p.systemic, l.status, l.reason, l.version, l.title, l.description, l.text,
	l.variables, p.created_at, p.updated_at, a.id, a.version, a.title, a.description, a.text, a.variables, a.kind`

const patternFrom = `FROM patterns p JOIN pattern_versions l ON l.id = p.latest_version_id
	LEFT JOIN pattern_versions a ON a.id = p.active_version_id`

func scanPattern(row pgx.CollectableRow) (Pattern, error) {
	var p Pattern
	var aID *int64
	var aVer *int
	var aTitle, aDesc, aText, aKind *string
	var aVars []Variable
	err := row.Scan(&p.ID, &p.Code, &p.Kind, &p.Shared, &p.Systemic, &p.Status, &p.Reason, &p.Version, &p.Title,
		&p.Description, &p.Text, &p.Variables, &p.CreatedAt, &p.UpdatedAt, &aID, &aVer, &aTitle, &aDesc, &aText, &aVars, &aKind)
	if err != nil {
		return p, err
	}
	p.SMSType = SendType(p.Kind)
	if aKind != nil {
		p.SMSType = SendType(*aKind) // what the pattern sends as: its approved version's kind
	}
	if aID != nil {
		p.Sendable = true
		p.Approved = &Version{ID: *aID, Version: *aVer, Status: StatusApproved, Active: true, Kind: *aKind,
			Draft: Draft{Title: *aTitle, Description: *aDesc, Text: *aText, Variables: aVars}}
	}
	return p, nil
}

// List returns a page of the patterns the caller sees (or the systemic ones).
func (s *Service) List(ctx context.Context, id acl.Identity, f Filter) ([]Pattern, int64, error) {
	if f.Status != "" && f.Status != StatusPending && f.Status != StatusApproved && f.Status != StatusRejected {
		return nil, 0, apperr.Field("status", MsgBadFilter)
	}
	if f.Kind != "" && f.Kind != KindOTP && f.Kind != KindTransactional && f.Kind != KindNormal {
		return nil, 0, apperr.Field("kind", MsgBadFilter)
	}
	where := ` WHERE p.account_id = $1 AND (p.shared OR $2::bool OR p.created_by = $3)`
	args := []any{id.AccountID, id.IsOwner, id.UserID}
	if f.Systemic {
		where = ` WHERE p.systemic AND $1::bigint IS NOT NULL AND $2::bool IS NOT NULL AND $3::bigint IS NOT NULL`
	}
	args = append(args, f.Status, f.Kind, db.Contains(f.Search), f.Sendable)
	where += ` AND ($4 = '' OR l.status = $4 OR ($4 = 'approved' AND p.active_version_id IS NOT NULL))
		AND ($5 = '' OR p.kind = $5) AND (l.title ILIKE $6 OR p.code ILIKE $6 OR l.text ILIKE $6)
		AND (NOT $7::bool OR p.active_version_id IS NOT NULL)`
	return db.Page(ctx, s.pool, "patterns", patternCols, patternFrom+where, "p.id DESC", args, f.Page.Limit, f.Page.Page, scanPattern)
}

// Get returns one pattern the caller sees (its own account's or a systemic one)
// with its versions and their review history.
func (s *Service) Get(ctx context.Context, id acl.Identity, pid int64) (Pattern, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+patternCols+` `+patternFrom+` WHERE p.id = $1 AND (`+visible+`)`,
		pid, id.AccountID, id.UserID, id.IsOwner)
	if err != nil {
		return Pattern{}, fmt.Errorf("read pattern: %w", err)
	}
	p, err := pgx.CollectExactlyOneRow(rows, scanPattern)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, apperr.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("read pattern: %w", err)
	}
	p.Versions, err = s.versions(ctx, pid)
	return p, err
}

// versions lists a pattern's versions, newest first, with who decided each.
func (s *Service) versions(ctx context.Context, pid int64) ([]Version, error) {
	rows, err := s.pool.Query(ctx, `SELECT v.id, v.version, v.status, v.reason, coalesce(v.id = p.active_version_id, false),
		coalesce((SELECT u.username FROM review_items i JOIN users u ON u.id = i.decided_by
			WHERE i.kind = $2 AND i.subject_id = v.id AND i.status <> 'pending' ORDER BY i.id DESC LIMIT 1), ''),
		v.decided_at, v.created_at, v.title, v.description, v.text, v.variables, v.kind
		FROM pattern_versions v JOIN patterns p ON p.id = v.pattern_id WHERE v.pattern_id = $1 ORDER BY v.version DESC`, pid, ReviewKind)
	if err != nil {
		return nil, fmt.Errorf("pattern versions: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Version, error) {
		var v Version
		err := r.Scan(&v.ID, &v.Version, &v.Status, &v.Reason, &v.Active, &v.DecidedBy, &v.DecidedAt, &v.CreatedAt,
			&v.Title, &v.Description, &v.Text, &v.Variables, &v.Kind)
		return v, err
	})
}

// VersionReview is what the back office shows of a version under review: the
// version, the one before it (for the diff) and the account's name (the brand).
type VersionReview struct {
	PatternID int64    `json:"pattern_id"`
	Code      string   `json:"code"`
	Kind      string   `json:"kind"`
	Account   string   `json:"account"`
	Version   Version  `json:"version"`
	Previous  *Version `json:"previous,omitempty"`
}

// ReviewView returns a version for staff with its predecessor.
func (s *Service) ReviewView(ctx context.Context, versionID int64) (VersionReview, error) {
	var r VersionReview
	err := s.pool.QueryRow(ctx, `SELECT p.id, p.code, v.kind, coalesce(a.name, '') FROM pattern_versions v
		JOIN patterns p ON p.id = v.pattern_id LEFT JOIN accounts a ON a.id = p.account_id WHERE v.id = $1`, versionID).
		Scan(&r.PatternID, &r.Code, &r.Kind, &r.Account)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, apperr.ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("review pattern version: %w", err)
	}
	vs, err := s.versions(ctx, r.PatternID)
	if err != nil {
		return r, err
	}
	for i, v := range vs {
		if v.ID == versionID {
			r.Version = v
			if i+1 < len(vs) {
				r.Previous = &vs[i+1]
			}
		}
	}
	return r, nil
}
