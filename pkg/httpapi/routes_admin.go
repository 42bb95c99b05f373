package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// adminRoutes lists the back office's routes: staff login, review queues and
// account administration. Every one but the login takes only staff sessions and
// answers anyone else 404.
func (s *Server) adminRoutes() []Route {
	return []Route{
		{http.MethodPost, "/admin/auth/login", acl.Public, s.staffLogin},
		{http.MethodPost, "/admin/auth/confirm_otp", acl.Public, s.confirmOTP},
		{http.MethodPost, "/admin/auth/send_sms_otp", acl.Public, s.sendOTP},
		{http.MethodPost, "/admin/auth/logout", acl.Staff, s.logout},
		{http.MethodGet, "/admin/me", acl.Staff, s.staffMe},

		{http.MethodGet, "/admin/reviews", acl.Staff, s.reviewQueues},
		{http.MethodGet, "/admin/reviews/items", acl.Staff, s.reviewItems},
		{http.MethodPost, "/admin/reviews/:id/approve", acl.Staff, s.approveReview},
		{http.MethodPost, "/admin/reviews/:id/reject", acl.Staff, s.rejectReview},
		{http.MethodGet, "/admin/moderation", acl.Staff, s.moderationRules},
		{http.MethodPost, "/admin/moderation", acl.Staff, s.saveModerationRules},
		{http.MethodPost, "/admin/old_panel", acl.Staff, s.saveOldPanel},

		{http.MethodGet, "/admin/accounts", acl.Staff, s.adminAccounts},
		{http.MethodGet, "/admin/accounts/:id", acl.Staff, s.adminAccount},
		{http.MethodPost, "/admin/accounts/:id/credit", acl.Staff, s.adjustCredit},
		{http.MethodPost, "/admin/accounts/:id/status", acl.Staff, s.setAccountStatus},
		{http.MethodPost, "/admin/accounts/:id/impersonate", acl.Staff, s.impersonate},
		{http.MethodPost, "/admin/accounts/:id/lines", acl.Staff, s.assignLine},
		{http.MethodGet, "/admin/accounts/:id/tariffs", acl.Staff, s.accountTariffs},
		{http.MethodPost, "/admin/accounts/:id/tariffs", acl.Staff, s.setTariff},

		{http.MethodGet, "/admin/staff", acl.Staff, s.staffUsers},
		{http.MethodPost, "/admin/staff", acl.Staff, s.createStaffUser},
		{http.MethodPost, "/admin/staff/:id/status", acl.Staff, s.setStaffUserStatus},
		{http.MethodPost, "/admin/staff/:id/operations", acl.Staff, s.setStaffUserOperations},
		{http.MethodGet, "/admin/operations", acl.StaffOperations, s.operationsOverview},

		{http.MethodGet, "/admin/content", acl.Staff, s.adminContent},
		{http.MethodPost, "/admin/content", acl.Staff, s.saveContent},
		{http.MethodPost, "/admin/content/:id/delete", acl.Staff, s.deleteContent},
		{http.MethodGet, "/admin/inbound-quarantine", acl.Staff, s.inboundQuarantine},

		// What customers see of it.
		{http.MethodGet, "/content/:kind", acl.Authenticated, s.liveContent},
		{http.MethodGet, "/content/dashboard", acl.Authenticated, s.dashboardContent},
	}
}
