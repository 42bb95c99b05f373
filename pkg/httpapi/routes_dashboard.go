package httpapi

import (
	"io"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/content"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/rollup"
	"github.com/chapar/chapar/pkg/validate"
)

// dashboardRoutes lists the dashboard charts and the analytics of the reports
// (docs/dashboard.md#charts, docs/reports.md).
func (s *Server) dashboardRoutes() []Route {
	charts, steps := s.Charts, s.FirstSteps
	return []Route{
		// The «اولین قدم‌ها» card: which first steps the account has taken.
		{http.MethodGet, "/panel/first-steps", acl.Authenticated, func(c *gin.Context) {
			v, err := steps.Of(c.Request.Context(), who(c).AccountID)
			reply(c, v, err)
		}},
		{http.MethodGet, "/panel/dashboard_charts", acl.ReportView, dashboardCharts(charts)},
		{http.MethodGet, "/report/analytics", acl.ReportView, reportAnalytics(s.Reports)},
		{http.MethodGet, "/report/systemic_list", acl.ReportView, systemicList(s.Reports)},
		{http.MethodGet, "/report/systemic_list/export", acl.ReportView, systemicExport(s.Reports)},
		{http.MethodGet, "/user/news/user_news_list", acl.Authenticated, userNews(s.Content)},
		{http.MethodPost, "/user/news/:id/read", acl.Authenticated, readNews(s.Content)},
		{http.MethodPost, "/user/news/read_all", acl.Authenticated, readAllNews(s.Content)},
		{http.MethodGet, "/panel/banners", acl.Authenticated, boardPart(s.Content, func(b content.Board) []content.Item { return b.Banners })},
		{http.MethodGet, "/panel/quick_access", acl.Authenticated, boardPart(s.Content, func(b content.Board) []content.Item { return b.QuickAccess })},
	}
}

// boardPart is GET /panel/banners and /panel/quick_access (spec §7 Home): one
// part of the live dashboard content, in staff order, as /content/dashboard
// serves the whole.
func boardPart(svc *content.Service, part func(content.Board) []content.Item) gin.HandlerFunc {
	return func(c *gin.Context) {
		b, err := svc.Board(c.Request.Context())
		reply(c, part(b), err)
	}
}

// userNews is GET /user/news/user_news_list: the live staff news with the user's
// read state and unread count.
func userNews(svc *content.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := svc.UserNews(c.Request.Context(), who(c).UserID)
		reply(c, out, err)
	}
}

// readNews is POST /user/news/:id/read: the user opened a news item.
func readNews(svc *content.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := pathID(c)
		if err == nil {
			err = svc.MarkNewsRead(c.Request.Context(), who(c).UserID, id)
		}
		reply(c, gin.H{"id": id}, err)
	}
}

// readAllNews is POST /user/news/read_all: «همه خوانده شد».
func readAllNews(svc *content.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		n, err := svc.MarkAllNewsRead(c.Request.Context(), who(c).UserID)
		reply(c, gin.H{"marked": n}, err)
	}
}

// dashboardCharts is GET /panel/dashboard_charts: the last 30 days from the rollups.
func dashboardCharts(r *rollup.Reader) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := r.Charts(c.Request.Context(), who(c).AccountID)
		if err != nil {
			Fail(c, err)
			return
		}
		OK(c, out)
	}
}

// reportAnalytics is GET /report/analytics?id=: a send's curve, operators and reasons.
func reportAnalytics(svc *report.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := report.ParseID(c.Query("id"))
		if err != nil {
			Fail(c, err)
			return
		}
		out, err := svc.SendAnalytics(c.Request.Context(), who(c).AccountID, id)
		if err != nil {
			Fail(c, err)
			return
		}
		OK(c, out)
	}
}

// systemicFilter reads page, limit, from and to of the systemic list.
func systemicFilter(q url.Values) (report.SystemicFilter, error) {
	pg, err := validate.ParsePaging(q, report.DefaultLimit, report.MaxLimit)
	if err != nil {
		return report.SystemicFilter{}, err
	}
	errs := apperr.Fields{}
	from, to := report.ParseRange(report.RangeParam(q, "from"), report.RangeParam(q, "to"), "from", "to", errs)
	return report.SystemicFilter{Page: pg.Page, Limit: pg.Limit, From: from, To: to}, errs.Err()
}

// systemicList is GET /report/systemic_list: the platform's messages to the account's users.
func systemicList(svc *report.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := systemicFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		rows, total, err := svc.SystemicList(c.Request.Context(), who(c).AccountID, f)
		if err != nil {
			Fail(c, err)
			return
		}
		Paged(c, rows, Page{Page: f.Page, Limit: f.Limit, Total: total})
	}
}

// systemicExport is GET /report/systemic_list/export: the filtered list as Excel.
func systemicExport(svc *report.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := systemicFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		xlsxDownload(c, "systemic.xlsx", func(w io.Writer) error {
			return svc.WriteSystemicXLSX(c.Request.Context(), who(c).AccountID, f, w)
		})
	}
}
