package colleague

import (
	"context"
	"fmt"
	"strconv"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// ACL is the caller's access list: what the panel may show them (spec §6).
type ACL struct {
	IsOwner     bool             `json:"is_owner"`
	ResellerID  int64            `json:"reseller_id"`
	Permissions []acl.Permission `json:"permissions"`
}

// ACL returns the caller's access list. resellerID, when given, must be the
// reseller of the caller's account (0 for none); any other answers not found.
func (s *Service) ACL(ctx context.Context, id acl.Identity, resellerID string) (ACL, error) {
	out := ACL{IsOwner: id.IsOwner, Permissions: []acl.Permission{}}
	var parent *int64
	if err := s.pool.QueryRow(ctx, `SELECT parent_id FROM accounts WHERE id = $1`, id.AccountID).Scan(&parent); err != nil {
		return ACL{}, fmt.Errorf("account reseller: %w", err)
	}
	if parent != nil {
		out.ResellerID = *parent
	}
	if resellerID != "" && resellerID != strconv.FormatInt(out.ResellerID, 10) {
		return ACL{}, apperr.ErrNotFound
	}
	for _, p := range acl.All {
		if id.Can(p) {
			out.Permissions = append(out.Permissions, p)
		}
	}
	return out, nil
}
