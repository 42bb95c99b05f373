package httpapi

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/support"
	"github.com/chapar/chapar/pkg/validate"
)

// adminSupportRoutes lists the back office's support: the request queue with its
// filters, answering, assignment, referral and closing, canned answers, the FAQ
// editor and the panel feedback. Staff sessions only.
func (s *Server) adminSupportRoutes() []Route {
	svc := s.Support
	return []Route{
		{http.MethodGet, "/admin/support/tickets", acl.Staff, s.adminTicketQueue},
		{http.MethodGet, "/admin/support/tickets/:id", acl.Staff, byPathID(svc.Show)},
		{http.MethodPost, "/admin/support/tickets/:id/answer", acl.Staff, s.adminTicketAnswer},
		{http.MethodPost, "/admin/support/tickets/:id/state", acl.Staff, s.adminTicketState},
		{http.MethodPost, "/admin/support/tickets/:id/assign", acl.Staff, s.adminTicketAssign},
		{http.MethodGet, "/admin/support/attachments/:id", acl.Staff, s.ticketAttachment},
		{http.MethodGet, "/admin/support/categories", acl.Staff, s.ticketCategories("")},
		{http.MethodGet, "/admin/support/canned", acl.Staff, s.cannedAnswers},
		{http.MethodPost, "/admin/support/canned", acl.Staff, byForm(svc.SaveCanned, false)},
		{http.MethodPost, "/admin/support/canned/:id/delete", acl.Staff, byPathAct(svc.DeleteCanned)},
		{http.MethodGet, "/admin/support/faq", acl.Staff, s.faqList(true)},
		{http.MethodPost, "/admin/support/faq", acl.Staff, byForm(svc.SaveFAQ, false)},
		{http.MethodPost, "/admin/support/faq/:id/delete", acl.Staff, s.faqDelete("faqs")},
		{http.MethodGet, "/admin/support/faq/categories", acl.Staff, s.faqCategories},
		{http.MethodPost, "/admin/support/faq/categories", acl.Staff, byForm(svc.SaveFAQCategory, false)},
		{http.MethodPost, "/admin/support/faq/categories/:id/delete", acl.Staff, s.faqDelete("faq_categories")},
		{http.MethodGet, "/admin/support/feedback", acl.Staff, s.feedbackList},
	}
}

// cannedAnswers answers the staff's canned answers.
func (s *Server) cannedAnswers(c *gin.Context) {
	v, err := s.Support.CannedAnswers(c.Request.Context())
	reply(c, v, err)
}

// faqDelete deletes an FAQ entry or category (table: faqs or faq_categories) by
// the :id path parameter.
func (s *Server) faqDelete(table string) gin.HandlerFunc {
	return byPathAct(func(ctx context.Context, by acl.Identity, id int64) error {
		return s.Support.DeleteFAQ(ctx, by, table, id)
	})
}

// feedbackList answers a page of the panel feedback.
func (s *Server) feedbackList(c *gin.Context) {
	pagedList(c, func(p validate.Paging) ([]support.FeedbackRow, int64, error) {
		return s.Support.FeedbackList(c.Request.Context(), p)
	})
}

// adminTicketQueue answers a page of every account's requests, filtered by state,
// kind, category, account, assigned staff (-1: nobody), search and creation dates.
func (s *Server) adminTicketQueue(c *gin.Context) {
	errs := apperr.Fields{}
	from, to := report.ParseRange(c.Query("from"), c.Query("to"), "from", "to", errs)
	if err := errs.Err(); err != nil {
		Fail(c, err)
		return
	}
	f := support.Filter{Kind: c.Query("kind"), State: support.State(queryInt(c, "state")), Search: c.Query("search"),
		CategoryID: queryInt(c, "category_id"), AccountID: queryInt(c, "account_id"), AssignedTo: queryInt(c, "assigned_to"),
		From: from, To: to}
	if c.Query("assigned_to") == "none" {
		f.AssignedTo = -1
	}
	pagedList(c, func(p validate.Paging) ([]support.Ticket, int64, error) {
		return s.Support.List(c.Request.Context(), who(c), f, p)
	})
}

func (s *Server) adminTicketAnswer(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	in, files, cleanup, ok := readTicketForm(c)
	defer cleanup()
	if !ok {
		return
	}
	d, err := s.Support.Answer(c.Request.Context(), who(c), support.Message{TicketID: id, Text: in.Text, Files: files,
		IP: c.ClientIP(), Action: support.Action(in.Action)})
	reply(c, d, err)
}

func (s *Server) adminTicketState(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in struct {
		State support.State `json:"state"`
	}) (any, error) {
		return s.Support.Refer(ctx, by, id, in.State, c.ClientIP())
	})
}

func (s *Server) adminTicketAssign(c *gin.Context) {
	withPathID(c, func(ctx context.Context, by acl.Identity, id int64, in struct {
		StaffID int64 `json:"staff_id"`
	}) (any, error) {
		return s.Support.Assign(ctx, by, id, in.StaffID)
	})
}
