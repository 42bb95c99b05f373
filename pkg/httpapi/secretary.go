package httpapi

import (
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/secretary"
	"github.com/chapar/chapar/pkg/validate"
)

// secretaryRoutes are the secretaries and keyword readers (spec §7 Secretary,
// docs/inbox-secretaries.md): general-messaging is the received-message
// secretary, advanced-reader every kind, module-inboxes-list one reader's
// answered messages. Replies are sent by the worker.
func (s *Server) secretaryRoutes() []Route {
	svc := s.Secretaries
	const base = "/phonebooks/advanced-services"
	return []Route{
		// ?kind=all|keywords|secretary|contest|poll|feedback|gift|visit&page=&limit=
		{http.MethodGet, base + "/advanced-reader", acl.SecretaryView, s.readerList("")},
		{http.MethodGet, base + "/advanced-reader/get-variables", acl.SecretaryView, s.readerVariables},
		{http.MethodGet, base + "/advanced-reader/:id", acl.SecretaryView, byPathID(svc.Get)},
		{http.MethodPost, base + "/advanced-reader", acl.SecretaryManage, s.readerSave(true)},
		{http.MethodPost, base + "/advanced-reader/update", acl.SecretaryManage, s.readerSave(false)},
		{http.MethodPost, base + "/advanced-reader/delete-list", acl.SecretaryManage, byBodyIDs(svc.Delete)},
		{http.MethodPost, base + "/advanced-reader/:id/toggle", acl.SecretaryManage, s.readerToggle},
		{http.MethodPost, base + "/advanced-reader/:id/codes", acl.SecretaryManage, s.readerCodes},
		{http.MethodGet, base + "/advanced-reader/:id/export-codes", acl.SecretaryView, s.readerCodesExport},
		{http.MethodPost, base + "/advanced-reader/:id/draw", acl.SecretaryManage, s.readerDraw},
		{http.MethodGet, base + "/advanced-reader/:id/draws", acl.SecretaryView, byPathID(svc.Draws)},
		{http.MethodGet, base + "/advanced-reader/:id/results", acl.SecretaryView, byPathID(svc.Results)},
		{http.MethodGet, base + "/general-messaging", acl.SecretaryView, s.readerList(secretary.KindSecretary)},
		{http.MethodPost, base + "/general-messaging/delete-list", acl.SecretaryManage, byBodyIDs(svc.Delete)},
		// ?reader_id=&outcome=&page=&limit=
		{http.MethodGet, base + "/module-inboxes-list", acl.SecretaryView, filteredList(secretary.ParseEntryFilter, entryPage, svc.Entries)},
		{http.MethodGet, base + "/module-inboxes-list/export", acl.SecretaryView,
			filteredExport(secretary.ParseEntryFilter, "secretary-inbox.xlsx", svc.WriteEntriesXLSX)},
		{http.MethodGet, "/numbers/receiver-list", acl.SecretaryView, byAccount(s.Lines.List)},
	}
}

// entryPage is the secretary inbox filter's page and limit.
func entryPage(f secretary.EntryFilter) (page, limit int) { return f.Page, f.Limit }

// readerVariables answers the variables a reader's answers of a kind may hold.
func (s *Server) readerVariables(c *gin.Context) {
	OK(c, gin.H{"variables": secretary.Variables(c.Query("kind"))})
}

func (s *Server) readerList(kind string) gin.HandlerFunc {
	return func(c *gin.Context) {
		k := kind
		if k == "" {
			k = strings.TrimSpace(c.DefaultQuery("kind", "keywords"))
		}
		pagedList(c, func(p validate.Paging) ([]secretary.Reader, int64, error) {
			return s.Secretaries.List(c.Request.Context(), who(c), k, p)
		})
	}
}

// readerSave creates (created: 201) or updates a reader from its form.
func (s *Server) readerSave(created bool) gin.HandlerFunc {
	save, answer := s.Secretaries.Update, reply
	if created {
		save, answer = s.Secretaries.Create, replyCreated
	}
	return func(c *gin.Context) {
		var in secretary.Input
		if !bind(c, &in) {
			return
		}
		v, err := save(c.Request.Context(), who(c), in, c.ClientIP())
		answer(c, v, err)
	}
}

func (s *Server) readerToggle(c *gin.Context) {
	withPathID(c, func(ctx context.Context, id acl.Identity, rid int64, in struct {
		Active *bool `json:"active"`
	}) (secretary.Reader, error) {
		if in.Active == nil {
			return secretary.Reader{}, apperr.Field("active", "وضعیت را مشخص کنید")
		}
		return s.Secretaries.Toggle(ctx, id, rid, *in.Active, c.ClientIP())
	})
}

func (s *Server) readerCodes(c *gin.Context) {
	withPathID(c, func(ctx context.Context, id acl.Identity, rid int64, in struct {
		Codes string `json:"codes"`
	}) (gin.H, error) {
		n, err := s.Secretaries.AddCodes(ctx, id, rid, in.Codes, c.ClientIP())
		return gin.H{"added": n}, err
	})
}

func (s *Server) readerDraw(c *gin.Context) {
	withPathID(c, func(ctx context.Context, id acl.Identity, rid int64, in secretary.DrawInput) (secretary.Draw, error) {
		return s.Secretaries.DrawWinners(ctx, id, rid, in, c.ClientIP())
	})
}

func (s *Server) readerCodesExport(c *gin.Context) {
	rid, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	xlsxDownload(c, "gift-codes.xlsx", func(w io.Writer) error { return s.Secretaries.WriteCodesXLSX(c.Request.Context(), who(c), rid, w) })
}
