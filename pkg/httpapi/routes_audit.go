package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/auditlog"
)

// auditRoutes lists the owner's audit-log routes (owner-only: acl.AuditView is in
// no role).
func (s *Server) auditRoutes() []Route {
	svc := s.AuditLog
	return []Route{
		// ?user_id=&action=&date_from=&date_to=&page=&limit=
		{http.MethodGet, "/user/audit", acl.AuditView, filteredList(auditlog.ParseFilter,
			func(f auditlog.Filter) (int, int) { return f.Page, f.Limit }, svc.List)},
		{http.MethodGet, "/user/audit/options", acl.AuditView, auditOptions(svc)},
		{http.MethodGet, "/user/audit/export", acl.AuditView, filteredExport(auditlog.ParseFilter, "audit-log.xlsx", svc.WriteXLSX)},
	}
}
