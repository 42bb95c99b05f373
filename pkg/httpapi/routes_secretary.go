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
		{http.MethodGet, base + "/advanced-reader", acl.SecretaryView, readerList(svc, "")},
		{http.MethodGet, base + "/advanced-reader/get-variables", acl.SecretaryView, func(c *gin.Context) {
			OK(c, gin.H{"variables": secretary.Variables(c.Query("kind"))})
		}},
		{http.MethodGet, base + "/advanced-reader/:id", acl.SecretaryView, byPathID(svc.Get)},
		{http.MethodPost, base + "/advanced-reader", acl.SecretaryManage, readerSave(svc.Create, true)},
		{http.MethodPost, base + "/advanced-reader/update", acl.SecretaryManage, readerSave(svc.Update, false)},
		{http.MethodPost, base + "/advanced-reader/delete-list", acl.SecretaryManage, readerDelete(svc)},
		{http.MethodPost, base + "/advanced-reader/:id/toggle", acl.SecretaryManage, readerToggle(svc)},
		{http.MethodPost, base + "/advanced-reader/:id/codes", acl.SecretaryManage, readerCodes(svc)},
		{http.MethodGet, base + "/advanced-reader/:id/export-codes", acl.SecretaryView, readerCodesExport(svc)},
		{http.MethodPost, base + "/advanced-reader/:id/draw", acl.SecretaryManage, readerDraw(svc)},
		{http.MethodGet, base + "/advanced-reader/:id/draws", acl.SecretaryView, byPathID(svc.Draws)},
		{http.MethodGet, base + "/advanced-reader/:id/results", acl.SecretaryView, byPathID(svc.Results)},
		{http.MethodGet, base + "/general-messaging", acl.SecretaryView, readerList(svc, secretary.KindSecretary)},
		{http.MethodPost, base + "/general-messaging/delete-list", acl.SecretaryManage, readerDelete(svc)},
		// ?reader_id=&outcome=&page=&limit=
		{http.MethodGet, base + "/module-inboxes-list", acl.SecretaryView, filteredList(secretary.ParseEntryFilter,
			func(f secretary.EntryFilter) (int, int) { return f.Page, f.Limit }, svc.Entries)},
		{http.MethodGet, base + "/module-inboxes-list/export", acl.SecretaryView,
			filteredExport(secretary.ParseEntryFilter, "secretary-inbox.xlsx", svc.WriteEntriesXLSX)},
		{http.MethodGet, "/numbers/receiver-list", acl.SecretaryView, func(c *gin.Context) {
			v, err := s.Lines.List(c.Request.Context(), who(c).AccountID)
			reply(c, v, err)
		}},
	}
}

func readerList(svc *secretary.Service, kind string) gin.HandlerFunc {
	return func(c *gin.Context) {
		k := kind
		if k == "" {
			k = strings.TrimSpace(c.DefaultQuery("kind", "keywords"))
		}
		pagedList(c, func(p validate.Paging) ([]secretary.Reader, int64, error) {
			return svc.List(c.Request.Context(), who(c), k, p)
		})
	}
}

func readerSave(save func(context.Context, acl.Identity, secretary.Input, string) (secretary.Reader, error), created bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in secretary.Input
		if !bind(c, &in) {
			return
		}
		v, err := save(c.Request.Context(), who(c), in, c.ClientIP())
		if created {
			replyCreated(c, v, err)
			return
		}
		reply(c, v, err)
	}
}

func readerDelete(svc *secretary.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			IDs flexIDs `json:"ids"`
		}
		if !bind(c, &in) {
			return
		}
		n, err := svc.Delete(c.Request.Context(), who(c), in.IDs.ints(), c.ClientIP())
		deletedCount(c, n, err)
	}
}

func readerToggle(svc *secretary.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		withPathID(c, func(ctx context.Context, id acl.Identity, rid int64, in struct {
			Active *bool `json:"active"`
		}) (secretary.Reader, error) {
			if in.Active == nil {
				return secretary.Reader{}, apperr.Field("active", "وضعیت را مشخص کنید")
			}
			return svc.Toggle(ctx, id, rid, *in.Active, c.ClientIP())
		})
	}
}

func readerCodes(svc *secretary.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		withPathID(c, func(ctx context.Context, id acl.Identity, rid int64, in struct {
			Codes string `json:"codes"`
		}) (gin.H, error) {
			n, err := svc.AddCodes(ctx, id, rid, in.Codes, c.ClientIP())
			return gin.H{"added": n}, err
		})
	}
}

func readerDraw(svc *secretary.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		withPathID(c, func(ctx context.Context, id acl.Identity, rid int64, in secretary.DrawInput) (secretary.Draw, error) {
			return svc.DrawWinners(ctx, id, rid, in, c.ClientIP())
		})
	}
}

func readerCodesExport(svc *secretary.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		rid, err := pathID(c)
		if err != nil {
			Fail(c, err)
			return
		}
		xlsxDownload(c, "gift-codes.xlsx", func(w io.Writer) error { return svc.WriteCodesXLSX(c.Request.Context(), who(c), rid, w) })
	}
}
