package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/auditlog"
)

// auditRoutes lists the owner's audit-log routes (owner-only: acl.AuditView is in
// no role).
func (s *Server) auditRoutes() []Route {
	return []Route{
		// ?user_id=&action=&date_from=&date_to=&page=&limit=
		{http.MethodGet, "/user/audit", acl.AuditView, filteredList(auditlog.ParseFilter, auditPage, s.AuditLog.List)},
		// The action codes and users to filter by.
		{http.MethodGet, "/user/audit/options", acl.AuditView, byAccount(s.AuditLog.Options)},
		{http.MethodGet, "/user/audit/export", acl.AuditView, filteredExport(auditlog.ParseFilter, "audit-log.xlsx", s.AuditLog.WriteXLSX)},
	}
}

// auditPage is the audit filter's page and limit.
func auditPage(f auditlog.Filter) (page, limit int) { return f.Page, f.Limit }
