package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// colleagueRoutes lists the access-role, colleague and access-list routes (spec §6,
// §7 Colleagues).
func (s *Server) colleagueRoutes() []Route {
	return []Route{
		{http.MethodGet, "/acl/list", acl.Authenticated, s.aclList},
		{http.MethodGet, "/acl/partner/permission_list", acl.PartnerManage, s.permissionList},
		{http.MethodGet, "/acl/partner/role_list", acl.PartnerManage, s.roleList},
		{http.MethodGet, "/acl/partner/show_role/:id", acl.PartnerManage, s.roleShow},
		{http.MethodPost, "/acl/partner/create_role", acl.PartnerManage, s.roleCreate},
		{http.MethodPost, "/acl/partner/update_role", acl.PartnerManage, s.roleUpdate},
		{http.MethodPost, "/acl/partner/delete_role", acl.PartnerManage, byBodyID(s.Colleagues.DeleteRole)},
		{http.MethodPost, "/acl/partner/copy_role", acl.PartnerManage, s.roleCopy},
		{http.MethodGet, "/user/partner/list", acl.PartnerManage, s.partnerList},
		{http.MethodGet, "/user/partner/show/:id", acl.PartnerManage, s.partnerShow},
		{http.MethodPost, "/user/partner/create", acl.PartnerManage, s.partnerCreate},
		{http.MethodPost, "/user/partner/update", acl.PartnerManage, s.partnerUpdate},
		{http.MethodPost, "/user/partner/deactive", acl.PartnerManage, byBodyID(s.Colleagues.Deactivate)},
		{http.MethodPost, "/user/partner/active", acl.PartnerManage, byBodyID(s.Colleagues.Activate)},
		{http.MethodPost, "/user/partner/resend_invite", acl.PartnerManage, byBodyID(s.Colleagues.ResendInvite)},
		{http.MethodPost, "/user/partner/accept_invite", acl.Public, s.acceptInvite},
	}
}
