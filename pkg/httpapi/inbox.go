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
	return []Route{
		// ?line=&sender=&text=&date_from=&date_to=&reader_id=&status=read|unread&page=&limit=
		{http.MethodGet, "/report/messages-inbox", acl.ReportView, filteredList(parseInboxFilter, inboxPage, svc.List)},
		{http.MethodGet, "/report/messages-inbox/export", acl.ReportView, filteredExport(parseInboxFilter, "inbox.xlsx", svc.WriteXLSX)},
		{http.MethodGet, "/report/messages-inbox/unread", acl.ReportView, s.inboxUnread},
		{http.MethodPost, "/report/messages-inbox/read", acl.InboxManage, s.inboxRead},
		// ?id= a received message: the conversation with its sender (received
		// messages and the replies sent from the inbox, in time order).
		{http.MethodGet, "/report/messages-inbox/thread", acl.ReportView, s.inboxThread},
		// {"id", "text"}: a quick send from the line the message came to, to its
		// sender, who stays masked when the number is the bank's.
		{http.MethodPost, "/report/messages-inbox/reply", acl.SendCreate, s.inboxReply},
		{http.MethodPost, "/report/messages-inbox/delete-list", acl.InboxManage, byBodyIDs(svc.Delete)},
	}
}

// parseInboxFilter reads the inbox list's filters (dates as the reports read them).
func parseInboxFilter(q url.Values) (inbox.Filter, error) {
	return inbox.ParseFilter(q, report.ParseRange)
}

// inboxPage is the inbox filter's page and limit.
func inboxPage(f inbox.Filter) (page, limit int) { return f.Page, f.Limit }

// inboxUnread is GET unread → {"unread": n}.
func (s *Server) inboxUnread(c *gin.Context) {
	n, err := s.Inbox.Unread(c.Request.Context(), who(c).AccountID)
	reply(c, gin.H{"unread": n}, err)
}

// inboxThread is GET thread?id=: the conversation of a received message.
func (s *Server) inboxThread(c *gin.Context) {
	v, err := s.Inbox.ThreadOf(c.Request.Context(), who(c).AccountID, queryInt(c, "id"))
	reply(c, v, err)
}

// inboxRead is POST read {"ids": […], "read": true|false (default true)} → {"changed": n}.
func (s *Server) inboxRead(c *gin.Context) {
	var in struct {
		IDs  flexIDs `json:"ids"`
		Read *bool   `json:"read"`
	}
	if !bind(c, &in) {
		return
	}
	n, err := s.Inbox.MarkRead(c.Request.Context(), who(c), in.IDs.ints(), in.Read == nil || *in.Read)
	reply(c, gin.H{"changed": n}, err)
}

// inboxReply is POST reply {"id": message id, "text": …} → the send accepted.
func (s *Server) inboxReply(c *gin.Context) {
	var in struct {
		ID   int64  `json:"id"`
		Text string `json:"text"`
	}
	if !bind(c, &in) {
		return
	}
	r, err := s.Inbox.ReplyOf(c.Request.Context(), who(c).AccountID, in.ID)
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
		if merr := s.Inbox.RecordReply(ctx, rec); merr != nil {
			slog.ErrorContext(ctx, "inbox reply not recorded", "send", a.ID, "err", merr)
		}
	}
	replyOnce(c, a, created, err)
}
