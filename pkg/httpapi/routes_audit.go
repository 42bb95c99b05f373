package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/auditlog"
)

// auditRoutes lists the owner's audit-log routes (owner-only: acl.AuditView is in
// no role).
func (s *Server) auditRoutes() []Route {
	svc := auditlog.New(s.Pool)
	return []Route{
		{http.MethodGet, "/user/audit", acl.AuditView, auditList(svc)},
		{http.MethodGet, "/user/audit/options", acl.AuditView, auditOptions(svc)},
		{http.MethodGet, "/user/audit/export", acl.AuditView, auditExport(svc)},
	}
}
