package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/auth"
	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/staff"
	"github.com/chapar/chapar/pkg/validate"
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

func (s *Server) staffLogin(c *gin.Context) {
	var in struct {
		Username    string `json:"username"`
		Password    string `json:"password"`
		DeviceToken string `json:"device_token"`
	}
	if !bind(c, &in) {
		return
	}
	res, err := s.Auth.LoginStaff(c.Request.Context(), in.Username, in.Password, device(c, in.DeviceToken))
	reply(c, res, err)
}

func (s *Server) staffMe(c *gin.Context) {
	id := who(c)
	OK(c, gin.H{"id": id.UserID, "name": id.Name, "user_name": id.Username, "staff": true,
		"operations": id.Can(acl.StaffOperations)})
}

func (s *Server) reviewQueues(c *gin.Context) {
	qs, err := s.Reviews.Queues(c.Request.Context())
	reply(c, qs, err)
}

func (s *Server) reviewItems(c *gin.Context) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 20, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	items, total, err := s.Reviews.List(c.Request.Context(), review.Filter{Kind: c.Query("kind"), Status: c.Query("status"), Page: p})
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, items, Page{Page: p.Page, Limit: p.Limit, Total: total})
}

func (s *Server) approveReview(c *gin.Context) { s.decideReview(c, true) }

func (s *Server) rejectReview(c *gin.Context) { s.decideReview(c, false) }

func (s *Server) decideReview(c *gin.Context, approve bool) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in struct {
		Reason string `json:"reason"`
	}
	if !bind(c, &in) {
		return
	}
	it, err := s.Reviews.Decide(c.Request.Context(), id, review.Decision{Approve: approve, Reason: in.Reason, Staff: who(c), IP: c.ClientIP()})
	reply(c, it, err)
}

func (s *Server) adminAccounts(c *gin.Context) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 20, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Staff.Accounts(c.Request.Context(), c.Query("q"), p)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: p.Page, Limit: p.Limit, Total: total})
}

// GET /admin/inbound-quarantine?page&limit: the inbound entries (receipts, MO
// parts) the worker quarantined, newest first.
func (s *Server) inboundQuarantine(c *gin.Context) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 20, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Quarantine.List(c.Request.Context(), p)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: p.Page, Limit: p.Limit, Total: total})
}

func (s *Server) adminAccount(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	a, err := s.Staff.Account(c.Request.Context(), id)
	reply(c, a, err)
}

func (s *Server) adjustCredit(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in staff.Adjust
	if !bind(c, &in) {
		return
	}
	bal, err := s.Staff.AdjustCredit(c.Request.Context(), who(c), id, in, c.ClientIP())
	reply(c, gin.H{"balance": bal}, err)
}

func (s *Server) setAccountStatus(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in struct {
		Status string `json:"status"`
	}
	if !bind(c, &in) {
		return
	}
	err = s.Staff.SetStatus(c.Request.Context(), who(c), id, in.Status, c.ClientIP())
	reply(c, gin.H{"status": in.Status}, err)
}

func (s *Server) impersonate(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	code, err := s.Auth.IssueStaffExternalCode(c.Request.Context(), who(c), id, client(c))
	reply(c, code, err)
}

func (s *Server) assignLine(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in staff.LineInput
	if !bind(c, &in) {
		return
	}
	l, err := s.Staff.AssignLine(c.Request.Context(), who(c), id, in, c.ClientIP())
	reply(c, l, err)
}

func (s *Server) accountTariffs(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	ts, err := s.Staff.Tariffs(c.Request.Context(), id)
	reply(c, ts, err)
}

func (s *Server) setTariff(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in staff.Tariff
	if !bind(c, &in) {
		return
	}
	err = s.Staff.SetTariff(c.Request.Context(), who(c), id, in, c.ClientIP())
	reply(c, gin.H{"operator": in.Operator}, err)
}

func (s *Server) adminContent(c *gin.Context) {
	items, err := s.Content.All(c.Request.Context(), c.Query("kind"))
	reply(c, items, err)
}

func (s *Server) saveContent(c *gin.Context) {
	var in content.Item
	if !bind(c, &in) {
		return
	}
	it, err := s.Content.Save(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, it, err)
}

func (s *Server) deleteContent(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	err = s.Content.Delete(c.Request.Context(), who(c), id, c.ClientIP())
	reply(c, gin.H{"id": id}, err)
}

func (s *Server) liveContent(c *gin.Context) {
	items, err := s.Content.Live(c.Request.Context(), c.Param("kind"))
	if e, ok := apperr.As(err); ok && e.Kind == apperr.Invalid {
		err = apperr.ErrNotFound // an unknown kind is an unknown path
	}
	reply(c, items, err)
}

func (s *Server) moderationRules(c *gin.Context) {
	v, err := s.Moderation.View(c.Request.Context())
	reply(c, v, err)
}

func (s *Server) saveModerationRules(c *gin.Context) {
	var in moderation.RulesView
	if !bind(c, &in) {
		return
	}
	err := s.Moderation.Save(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, in, err)
}

// saveOldPanel sets the «old panel» strip's address (empty turns it off); the
// current one is read with the login page's settings (GET /acl/auth/login_setting).
func (s *Server) saveOldPanel(c *gin.Context) {
	var in auth.OldPanel
	if !bind(c, &in) {
		return
	}
	out, err := s.Auth.SaveOldPanel(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, out, err)
}

// dashboardContent is the customer dashboard's banners, news and quick access in one
// answer, from the content service's short cache.
func (s *Server) dashboardContent(c *gin.Context) {
	b, err := s.Content.Board(c.Request.Context())
	reply(c, b, err)
}

func (s *Server) staffUsers(c *gin.Context) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 20, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Staff.Users(c.Request.Context(), p)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: p.Page, Limit: p.Limit, Total: total})
}

func (s *Server) createStaffUser(c *gin.Context) {
	var in staff.UserInput
	if !bind(c, &in) {
		return
	}
	u, err := s.Staff.CreateUser(c.Request.Context(), who(c), in, c.ClientIP())
	if err != nil {
		Fail(c, err)
		return
	}
	Created(c, u)
}

func (s *Server) setStaffUserStatus(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in struct {
		Status string `json:"status"`
	}
	if !bind(c, &in) {
		return
	}
	u, err := s.Staff.SetUserStatus(c.Request.Context(), who(c), id, in.Status, c.ClientIP())
	reply(c, u, err)
}

func (s *Server) setStaffUserOperations(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in struct {
		Operations bool `json:"operations"`
	}
	if !bind(c, &in) {
		return
	}
	u, err := s.Staff.SetOperations(c.Request.Context(), who(c), id, in.Operations, c.ClientIP())
	reply(c, u, err)
}

func (s *Server) operationsOverview(c *gin.Context) {
	ov, err := s.Operations.Overview(c.Request.Context())
	reply(c, ov, err)
}
