package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/validate"
)

// linkRoutes are the link tracker (spec §7 /panel/link_tracker, docs/link-tracking.md).
// Making and removing links is part of composing sends (send.create); their
// statistics are reports (report.view).
func (s *Server) linkRoutes() []Route {
	svc := s.Links
	return []Route{
		{http.MethodGet, "/panel/link_tracker", acl.SendCreate, s.linkList},
		{http.MethodGet, "/panel/link_tracker/settings", acl.SendCreate, byCaller(svc.Settings)},
		{http.MethodPost, "/panel/link_tracker", acl.SendCreate, byForm(svc.Create, true)},
		{http.MethodPost, "/panel/link_tracker/delete", acl.SendCreate, byBodyID(svc.Delete)},
		{http.MethodGet, "/panel/link_tracker/:id/stats", acl.ReportView, byPathID(svc.Stats)},
	}
}

// linkList answers a page of the account's tracked links.
func (s *Server) linkList(c *gin.Context) {
	pagedList(c, func(p validate.Paging) ([]links.Link, int64, error) {
		return s.Links.List(c.Request.Context(), who(c), p)
	})
}

// notFoundPage is what an unknown short link shows.
const notFoundPage = `<!doctype html><html lang="fa" dir="rtl"><meta charset="utf-8"><title>چاپار</title>` +
	`<body style="font-family:sans-serif;text-align:center;padding:3em">این لینک معتبر نیست یا منقضی شده است.</body></html>`

// tooManyPage is what an address past the redirect's limits sees.
const tooManyPage = `<!doctype html><html lang="fa" dir="rtl"><meta charset="utf-8"><title>چاپار</title>` +
	`<body style="font-family:sans-serif;text-align:center;padding:3em">درخواست‌های این نشانی بیش از حد مجاز است؛ چند دقیقه بعد دوباره امتحان کنید.</body></html>`

// shortLink is GET /l/{code}: the redirect of a tracked short link. It answers
// 302 to the target with its UTM parameters and buffers the click (the recorder
// writes clicks in batches); an unknown code is a 404 page, and a client address
// past the redirect's limits a 429 page.
func (s *Server) shortLink(c *gin.Context) {
	target, click, err := s.Links.Open(c.Request.Context(), c.Param("code"), c.ClientIP())
	if errors.Is(err, links.ErrUnknownCode) {
		c.Data(http.StatusNotFound, "text/html; charset=utf-8", []byte(notFoundPage))
		return
	}
	var tooMany links.ErrTooMany
	if errors.As(err, &tooMany) {
		c.Header("Retry-After", strconv.Itoa(max(1, int(tooMany.RetryAfter.Seconds()))))
		c.Data(http.StatusTooManyRequests, "text/html; charset=utf-8", []byte(tooManyPage))
		return
	}
	if err != nil {
		slog.ErrorContext(c.Request.Context(), "short link", "err", err)
		c.Data(http.StatusServiceUnavailable, "text/html; charset=utf-8", []byte(notFoundPage))
		return
	}
	s.Links.Record(click)
	c.Header("Cache-Control", "no-store")
	c.Header("Referrer-Policy", "no-referrer")
	c.Redirect(http.StatusFound, target)
}
