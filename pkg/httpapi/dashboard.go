package httpapi

import (
	"io"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/report"
	"github.com/chapar/chapar/pkg/validate"
)

// dashboardRoutes lists the dashboard charts and the analytics of the reports
// (docs/dashboard.md#charts, docs/reports.md).
func (s *Server) dashboardRoutes() []Route {
	return []Route{
		// The «اولین قدم‌ها» card: which first steps the account has taken.
		{http.MethodGet, "/panel/first-steps", acl.Authenticated, byAccount(s.FirstSteps.Of)},
		// The last 30 days from the rollups.
		{http.MethodGet, "/panel/dashboard_charts", acl.ReportView, byAccount(s.Charts.Charts)},
		{http.MethodGet, "/report/analytics", acl.ReportView, s.reportAnalytics},
		{http.MethodGet, "/report/systemic_list", acl.ReportView, s.systemicList},
		{http.MethodGet, "/report/systemic_list/export", acl.ReportView, s.systemicExport},
		{http.MethodGet, "/user/news/user_news_list", acl.Authenticated, s.userNews},
		{http.MethodPost, "/user/news/:id/read", acl.Authenticated, s.readNews},
		{http.MethodPost, "/user/news/read_all", acl.Authenticated, s.readAllNews},
		{http.MethodGet, "/panel/banners", acl.Authenticated, s.banners},
		{http.MethodGet, "/panel/quick_access", acl.Authenticated, s.quickAccess},
	}
}

// banners is GET /panel/banners (spec §7 Home): the live dashboard banners, in
// staff order, as /content/dashboard serves them with the rest.
func (s *Server) banners(c *gin.Context) {
	b, err := s.Content.Board(c.Request.Context())
	reply(c, b.Banners, err)
}

// quickAccess is GET /panel/quick_access (spec §7 Home): the live quick-access
// items, as /content/dashboard serves them with the rest.
func (s *Server) quickAccess(c *gin.Context) {
	b, err := s.Content.Board(c.Request.Context())
	reply(c, b.QuickAccess, err)
}

// userNews is GET /user/news/user_news_list: the live staff news with the user's
// read state and unread count.
func (s *Server) userNews(c *gin.Context) {
	out, err := s.Content.UserNews(c.Request.Context(), who(c).UserID)
	reply(c, out, err)
}

// readNews is POST /user/news/:id/read: the user opened a news item.
func (s *Server) readNews(c *gin.Context) {
	id, err := pathID(c)
	if err == nil {
		err = s.Content.MarkNewsRead(c.Request.Context(), who(c).UserID, id)
	}
	reply(c, gin.H{"id": id}, err)
}

// readAllNews is POST /user/news/read_all: «همه خوانده شد».
func (s *Server) readAllNews(c *gin.Context) {
	n, err := s.Content.MarkAllNewsRead(c.Request.Context(), who(c).UserID)
	reply(c, gin.H{"marked": n}, err)
}

// reportAnalytics is GET /report/analytics?id=: a send's curve, operators and reasons.
func (s *Server) reportAnalytics(c *gin.Context) {
	id, err := report.ParseID(c.Query("id"))
	if err != nil {
		Fail(c, err)
		return
	}
	out, err := s.Reports.SendAnalytics(c.Request.Context(), who(c).AccountID, id)
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, out)
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
func (s *Server) systemicList(c *gin.Context) {
	f, err := systemicFilter(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Reports.SystemicList(c.Request.Context(), who(c).AccountID, f)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: f.Page, Limit: f.Limit, Total: total})
}

// systemicExport is GET /report/systemic_list/export: the filtered list as Excel.
func (s *Server) systemicExport(c *gin.Context) {
	f, err := systemicFilter(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	xlsxDownload(c, "systemic.xlsx", func(w io.Writer) error {
		return s.Reports.WriteSystemicXLSX(c.Request.Context(), who(c).AccountID, f, w)
	})
}
