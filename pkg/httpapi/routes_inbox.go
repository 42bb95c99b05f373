package httpapi

import (
	"log/slog"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/inbox"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/send"
)

// inboxRoutes are the inbox page's routes (spec §7 Inbox, docs/inbox-secretaries.md):
// the received messages with filters, their export, mark read and delete, and the
// reply to a message by its id (a quick send).
func (s *Server) inboxRoutes() []Route {
	svc := s.Inbox
	parse := func(q url.Values) (inbox.Filter, error) { return inbox.ParseFilter(q, report.ParseRange) }
	return []Route{
		// ?line=&sender=&text=&date_from=&date_to=&reader_id=&status=read|unread&page=&limit=
		{http.MethodGet, "/report/messages-inbox", acl.ReportView, filteredList(parse,
			func(f inbox.Filter) (int, int) { return f.Page, f.Limit }, svc.List)},
		{http.MethodGet, "/report/messages-inbox/export", acl.ReportView, filteredExport(parse, "inbox.xlsx", svc.WriteXLSX)},
		{http.MethodGet, "/report/messages-inbox/unread", acl.ReportView, func(c *gin.Context) {
			n, err := svc.Unread(c.Request.Context(), who(c).AccountID)
			reply(c, gin.H{"unread": n}, err)
		}},
		{http.MethodPost, "/report/messages-inbox/read", acl.InboxManage, inboxRead(svc)},
		// ?id= a received message: the conversation with its sender (received
		// messages and the replies sent from the inbox, in time order).
		{http.MethodGet, "/report/messages-inbox/thread", acl.ReportView, func(c *gin.Context) {
			v, err := svc.ThreadOf(c.Request.Context(), who(c).AccountID, queryInt(c, "id"))
			reply(c, v, err)
		}},
		// {"id", "text"}: a quick send from the line the message came to, to its
		// sender, who stays masked when the number is the bank's.
		{http.MethodPost, "/report/messages-inbox/reply", acl.SendCreate, s.inboxReply(svc)},
		{http.MethodPost, "/report/messages-inbox/delete-list", acl.InboxManage, func(c *gin.Context) {
			var in struct {
				IDs flexIDs `json:"ids"`
			}
			if !bind(c, &in) {
				return
			}
			n, err := svc.Delete(c.Request.Context(), who(c), in.IDs.ints(), c.ClientIP())
			deletedCount(c, n, err)
		}},
	}
}

// inboxRead is POST read {"ids": […], "read": true|false (default true)} → {"changed": n}.
func inboxRead(svc *inbox.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			IDs  flexIDs `json:"ids"`
			Read *bool   `json:"read"`
		}
		if !bind(c, &in) {
			return
		}
		n, err := svc.MarkRead(c.Request.Context(), who(c), in.IDs.ints(), in.Read == nil || *in.Read)
		reply(c, gin.H{"changed": n}, err)
	}
}

// inboxReply is POST reply {"id": message id, "text": …} → the send accepted.
func (s *Server) inboxReply(svc *inbox.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			ID   int64  `json:"id"`
			Text string `json:"text"`
		}
		if !bind(c, &in) {
			return
		}
		r, err := svc.ReplyOf(c.Request.Context(), who(c).AccountID, in.ID)
		if err != nil {
			Fail(c, err)
			return
		}
		ctx := c.Request.Context()
		a, created, err := s.Sends.Create(ctx, who(c), send.Request{Type: send.TypeQuick, Sender: r.Line,
			Numbers: []string{r.To}, Text: in.Text, Masked: r.Masked}, c.GetHeader("Idempotency-Key"), c.ClientIP())
		if err == nil {
			// The send is accepted whatever follows: a failed mark is logged, not
			// turned into an error for a reply that is on its way.
			rec := inbox.ReplyRecord{AccountID: who(c).AccountID, MessageID: in.ID, SendID: a.ID, Text: in.Text, Reply: r}
			if merr := svc.RecordReply(ctx, rec); merr != nil {
				slog.ErrorContext(ctx, "inbox reply not recorded", "send", a.ID, "err", merr)
			}
		}
		replyOnce(c, a, created, err)
	}
}
