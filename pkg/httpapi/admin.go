package httpapi

import (
	"context"
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

func (s *Server) staffLogin(c *gin.Context) { passwordLogin(c, s.Auth.LoginStaff) }

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
	staffPaged(c, func(ctx context.Context, p validate.Paging) ([]review.Item, int64, error) {
		return s.Reviews.List(ctx, review.Filter{Kind: c.Query("kind"), Status: c.Query("status"), Page: p})
	})
}

// staffPaged reads the back office's paging (20 a page unless asked, at most 100)
// and answers one page of list.
func staffPaged[T any](c *gin.Context, list func(ctx context.Context, p validate.Paging) ([]T, int64, error)) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 20, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := list(c.Request.Context(), p)
	pagedReply(c, rows, total, p, err)
}

func (s *Server) approveReview(c *gin.Context) { s.decideReview(c, true) }

func (s *Server) rejectReview(c *gin.Context) { s.decideReview(c, false) }

func (s *Server) decideReview(c *gin.Context, approve bool) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in struct {
		Reason string `json:"reason"`
	}) (any, error) {
		return s.Reviews.Decide(ctx, id, review.Decision{Approve: approve, Reason: in.Reason, Staff: by, IP: c.ClientIP()})
	})
}

func (s *Server) adminAccounts(c *gin.Context) {
	staffPaged(c, func(ctx context.Context, p validate.Paging) ([]staff.Account, int64, error) {
		return s.Staff.Accounts(ctx, c.Query("q"), p)
	})
}

// GET /admin/inbound-quarantine?page&limit: the inbound entries (receipts, MO
// parts) the worker quarantined, newest first.
func (s *Server) inboundQuarantine(c *gin.Context) { staffPaged(c, s.Quarantine.List) }

func (s *Server) adminAccount(c *gin.Context) {
	withID(c, func(id int64) (any, error) { return s.Staff.Account(c.Request.Context(), id) })
}

func (s *Server) adjustCredit(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in staff.Adjust) (any, error) {
		bal, err := s.Staff.AdjustCredit(ctx, by, id, in, c.ClientIP())
		return gin.H{"balance": bal}, err
	})
}

func (s *Server) setAccountStatus(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in struct {
		Status string `json:"status"`
	}) (any, error) {
		err := s.Staff.SetStatus(ctx, by, id, in.Status, c.ClientIP())
		return gin.H{"status": in.Status}, err
	})
}

func (s *Server) impersonate(c *gin.Context) {
	withID(c, func(id int64) (any, error) {
		return s.Auth.IssueStaffExternalCode(c.Request.Context(), who(c), id, client(c))
	})
}

func (s *Server) assignLine(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in staff.LineInput) (any, error) {
		return s.Staff.AssignLine(ctx, by, id, in, c.ClientIP())
	})
}

func (s *Server) accountTariffs(c *gin.Context) {
	withID(c, func(id int64) (any, error) { return s.Staff.Tariffs(c.Request.Context(), id) })
}

func (s *Server) setTariff(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in staff.Tariff) (any, error) {
		err := s.Staff.SetTariff(ctx, by, id, in, c.ClientIP())
		return gin.H{"operator": in.Operator}, err
	})
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

func (s *Server) staffUsers(c *gin.Context) { staffPaged(c, s.Staff.Users) }

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
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in struct {
		Status string `json:"status"`
	}) (any, error) {
		return s.Staff.SetUserStatus(ctx, by, id, in.Status, c.ClientIP())
	})
}

func (s *Server) setStaffUserOperations(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in struct {
		Operations bool `json:"operations"`
	}) (any, error) {
		return s.Staff.SetOperations(ctx, by, id, in.Operations, c.ClientIP())
	})
}

func (s *Server) operationsOverview(c *gin.Context) {
	ov, err := s.Operations.Overview(c.Request.Context())
	reply(c, ov, err)
}
