package httpapi

import (
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/support"
	"github.com/chapar/chapar/pkg/validate"
)

// TicketBodyLimit bounds a support message: its attachments and form fields.
const TicketBodyLimit int64 = support.MaxAttachments*support.MaxAttachment + 256<<10

func init() {
	for _, r := range []string{"POST /v1/api/ticket", "POST /v1/api/ticket/interaction", "POST /v1/api/admin/support/tickets/:id/answer"} {
		bodyLimits[r] = TicketBodyLimit
		streamRoutes[r] = true
	}
	streamRoutes["GET /v1/api/ticket/attachment/:id"] = true
	streamRoutes["GET /v1/api/admin/support/attachments/:id"] = true
}

// supportRoutes lists the customers' support (spec §7 Support, docs/support.md):
// tickets and suggestion requests, their conversation and ratings, the answer-SMS
// setting, the panel feedback form, the FAQ and the contact info.
func (s *Server) supportRoutes() []Route {
	svc := s.Support
	return []Route{
		{http.MethodGet, "/ticket/category", acl.SupportManage, s.ticketCategories("")},
		{http.MethodGet, "/ticket/sub_category", acl.SupportManage, s.ticketCategories("category_id")},
		{http.MethodGet, "/ticket", acl.SupportManage, s.ticketList},
		{http.MethodGet, "/ticket/summary", acl.SupportManage, byCaller(svc.Summary)},
		{http.MethodPost, "/ticket", acl.SupportManage, s.ticketCreate},
		{http.MethodGet, "/ticket/show/:id", acl.SupportManage, byPathID(svc.Show)},
		{http.MethodPost, "/ticket/interaction", acl.SupportManage, s.ticketReply},
		{http.MethodPost, "/ticket/close", acl.SupportManage, s.ticketClose},
		{http.MethodPost, "/interaction/rate", acl.SupportManage, byForm(svc.RateInteraction, false)},
		{http.MethodPost, "/ticket/rate", acl.SupportManage, byForm(svc.RateTicket, false)},
		{http.MethodGet, "/ticket/attachment/:id", acl.SupportManage, s.ticketAttachment},
		{http.MethodGet, "/ticket/settings", acl.SupportManage, byCaller(svc.GetSettings)},
		{http.MethodPost, "/ticket/settings", acl.SupportManage, byForm(svc.SaveSettings, false)},
		{http.MethodPost, "/ticket/feedback", acl.Authenticated, byForm(svc.SaveFeedback, true)},
		{http.MethodGet, "/faq/category", acl.Authenticated, s.faqCategories},
		{http.MethodGet, "/faq/list", acl.Authenticated, s.faqList(false)},
		{http.MethodGet, "/panel/contact_info", acl.Authenticated, s.contactInfo},
	}
}

func (s *Server) ticketCategories(parentParam string) gin.HandlerFunc {
	return func(c *gin.Context) {
		var parent int64
		if parentParam != "" {
			parent = queryInt(c, parentParam)
			if parent <= 0 {
				Fail(c, apperr.Field(parentParam, support.MsgCategory))
				return
			}
		}
		v, err := s.Support.Categories(c.Request.Context(), parent)
		reply(c, v, err)
	}
}

func (s *Server) ticketList(c *gin.Context) {
	f := support.Filter{Kind: c.Query("kind"), State: support.State(queryInt(c, "state")), Search: c.Query("search")}
	pagedList(c, func(p validate.Paging) ([]support.Ticket, int64, error) {
		return s.Support.List(c.Request.Context(), who(c), f, p)
	})
}

// ticketFields are the text fields of a support form (multipart or JSON).
type ticketFields struct {
	Kind          string `json:"kind"`
	CategoryID    int64  `json:"category_id"`
	SubCategoryID int64  `json:"sub_category_id"`
	TicketID      int64  `json:"ticket_id"`
	Title         string `json:"title"`
	Text          string `json:"text"`
	Action        string `json:"action"`
}

// readTicketForm reads a support form: multipart with its "attachments" files, or a
// JSON body without files. The cleanup removes the form's temporary files.
func readTicketForm(c *gin.Context) (ticketFields, []support.File, func(), bool) {
	var in ticketFields
	if !strings.HasPrefix(c.ContentType(), "multipart/") {
		return in, nil, func() {}, bind(c, &in)
	}
	if err := c.Request.ParseMultipartForm(1 << 20); err != nil {
		Fail(c, badForm(err))
		return in, nil, func() {}, false
	}
	form := c.Request.MultipartForm
	num := func(k string) int64 {
		n, _ := strconv.ParseInt(validate.ToLatinDigits(strings.TrimSpace(c.PostForm(k))), 10, 64)
		return n
	}
	in = ticketFields{Kind: c.PostForm("kind"), CategoryID: num("category_id"), SubCategoryID: num("sub_category_id"),
		TicketID: num("ticket_id"), Title: c.PostForm("title"), Text: c.PostForm("text"), Action: c.PostForm("action")}
	return in, filesOf(form.File["attachments"]), func() { _ = form.RemoveAll() }, true
}

func filesOf(fhs []*multipart.FileHeader) []support.File {
	out := make([]support.File, 0, len(fhs))
	for _, fh := range fhs {
		out = append(out, support.File{Name: fh.Filename, Size: fh.Size, Open: func() (io.ReadCloser, error) { return fh.Open() }})
	}
	return out
}

func (s *Server) ticketCreate(c *gin.Context) {
	in, files, cleanup, ok := readTicketForm(c)
	defer cleanup()
	if !ok {
		return
	}
	d, err := s.Support.Create(c.Request.Context(), who(c), support.NewRequest{Kind: in.Kind, CategoryID: in.CategoryID,
		SubCategoryID: in.SubCategoryID, Title: in.Title, Text: in.Text, Files: files, IP: c.ClientIP()})
	replyCreated(c, d, err)
}

func (s *Server) ticketReply(c *gin.Context) {
	in, files, cleanup, ok := readTicketForm(c)
	defer cleanup()
	if !ok {
		return
	}
	d, err := s.Support.Reply(c.Request.Context(), who(c), support.Message{TicketID: in.TicketID, Text: in.Text, Files: files,
		IP: c.ClientIP()})
	reply(c, d, err)
}

func (s *Server) ticketClose(c *gin.Context) {
	var in struct {
		ID int64 `json:"id"`
	}
	if !bind(c, &in) {
		return
	}
	d, err := s.Support.CloseTicket(c.Request.Context(), who(c), in.ID, c.ClientIP())
	reply(c, d, err)
}

// ticketAttachment streams an attachment of the caller's request (or, for staff,
// any request's).
func (s *Server) ticketAttachment(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	a, rc, err := s.Support.OpenAttachment(c.Request.Context(), who(c), id)
	if err != nil {
		Fail(c, err)
		return
	}
	defer rc.Close()
	startDownload(c, a.ContentType, a.Name)
	if _, err := io.Copy(c.Writer, rc); err != nil {
		slog.WarnContext(c.Request.Context(), "attachment download cut short", "attachment", a.ID, "err", err)
	}
}

func (s *Server) faqList(all bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := s.Support.FAQs(c.Request.Context(), queryInt(c, "category_id"), c.Query("search"), all)
		reply(c, v, err)
	}
}

// faqCategories answers the FAQ's categories.
func (s *Server) faqCategories(c *gin.Context) {
	v, err := s.Support.FAQCategories(c.Request.Context())
	reply(c, v, err)
}

// contactInfo answers the platform's contact details (the live "contact" content).
func (s *Server) contactInfo(c *gin.Context) {
	v, err := s.Content.Live(c.Request.Context(), "contact")
	reply(c, v, err)
}
