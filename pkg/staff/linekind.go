package staff

import (
	"context"
	"strconv"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/line"
)

// LineKindInput changes the kind of one of an account's lines.
type LineKindInput struct {
	LineID int64  `json:"line_id"`
	Kind   string `json:"kind"`
}

// Lines lists an account's sender lines, the default first.
func (s *Service) Lines(ctx context.Context, accountID int64) ([]line.Line, error) {
	if _, err := s.Account(ctx, accountID); err != nil {
		return nil, err
	}
	return line.New(s.pool).List(ctx, accountID)
}

// SetLineKind changes the kind of an account's line (its sending rules follow
// the kind), audited with the staff member.
func (s *Service) SetLineKind(ctx context.Context, by acl.Identity, accountID int64, in LineKindInput, ip string) (line.Line, error) {
	if _, err := s.Account(ctx, accountID); err != nil {
		return line.Line{}, err
	}
	before, after, err := line.New(s.pool).SetKind(ctx, accountID, in.LineID, in.Kind)
	if err != nil {
		return after, err
	}
	return after, audit.Record(ctx, s.pool, audit.Entry{AccountID: accountID, UserID: by.UserID, Action: "staff.line_kind_changed",
		TargetType: "line", Target: strconv.FormatInt(in.LineID, 10), IP: ip,
		Before: map[string]any{"kind": before.Kind}, After: map[string]any{"kind": after.Kind},
		Details: map[string]any{"staff": by.Username, "number": after.Number}})
}
