package httpapi

import (
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// staffGate keeps the two kinds of session apart: a staff route takes only staff
// sessions, and every other route refuses them.
func staffGate(id acl.Identity, perm acl.Permission) error {
	if perm.IsStaff() && !id.Staff {
		return apperr.ErrNotFound
	}
	if !perm.IsStaff() && id.Staff {
		return apperr.ErrUnauthorized
	}
	return nil
}

// hideStaff answers every refusal on a staff route with 404, so the back office
// is not discoverable without a staff session.
func hideStaff(perm acl.Permission, err error) error {
	if _, ok := apperr.As(err); ok && perm.IsStaff() {
		return apperr.ErrNotFound
	}
	return err
}
