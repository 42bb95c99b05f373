package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// aclRoutes lists the colleague and role routes.
func (s *Server) aclRoutes() []Route {
	return []Route{
		// Colleagues and roles (spec §6).
		{http.MethodGet, "/acl/partner/permission_list", acl.PartnerManage, s.permissionList},
	}
}
