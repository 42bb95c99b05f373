package httpapi

import (
	"fmt"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/report"
)

// reportRoutes lists the report routes (spec §7 Reports).
func (s *Server) reportRoutes() []Route {
	return []Route{
		{http.MethodGet, "/report/new_list", acl.ReportView, s.reportList(false)},
		{http.MethodGet, "/report/archive_list", acl.ReportView, s.reportList(true)},
		{http.MethodGet, "/report/bulk_stats", acl.ReportView, s.reportBulkStats},
		{http.MethodGet, "/report/archive_bulk_stats", acl.ReportView, s.reportBulkStats},
		{http.MethodGet, "/report/by_bulk", acl.ReportView, s.reportByBulk},
		{http.MethodGet, "/report/recipients", acl.ReportView, s.reportRecipients},
		{http.MethodGet, "/report/download_recipients", acl.ReportView, s.reportDownloadRecipients},
	}
}

// reportList is GET /report/new_list (the sends of the last 30 days) or, with
// archive, GET /report/archive_list (the older ones).
func (s *Server) reportList(archive bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := report.ParseFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		f.Archive = archive
		rows, total, err := s.Reports.List(c.Request.Context(), who(c).AccountID, f)
		if err != nil {
			Fail(c, err)
			return
		}
		Paged(c, rows, Page{Page: f.Page, Limit: f.Limit, Total: total})
	}
}

// reportBulkStats is GET /report/bulk_stats?id= (and archive_bulk_stats).
func (s *Server) reportBulkStats(c *gin.Context) {
	id, err := report.ParseID(c.Query("id"))
	if err != nil {
		Fail(c, err)
		return
	}
	st, err := s.Reports.Stats(c.Request.Context(), who(c).AccountID, id)
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, st)
}

// reportByBulk is GET /report/by_bulk?ids=1,2,3: the caller's sends among the ids.
func (s *Server) reportByBulk(c *gin.Context) {
	ids, err := report.ParseIDs(c.Query("ids"))
	if err != nil {
		Fail(c, err)
		return
	}
	out, err := s.Reports.ByBulk(c.Request.Context(), who(c).AccountID, ids)
	if err != nil {
		Fail(c, err)
		return
	}
	OK(c, out)
}

// reportRecipients is GET /report/recipients?id=&status=&mobile=&page=&limit=.
func (s *Server) reportRecipients(c *gin.Context) {
	q, err := report.ParseRecipientQuery(c.Request.URL.Query())
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Reports.RecipientsPage(c.Request.Context(), who(c).AccountID, q)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: q.Page, Limit: q.Limit, Total: total})
}

// reportDownloadRecipients is GET /report/download_recipients?id=: the recipients
// as an Excel file. Errors found before the first byte get the usual envelope.
func (s *Server) reportDownloadRecipients(c *gin.Context) {
	id, err := report.ParseID(c.Query("id"))
	if err != nil {
		Fail(c, err)
		return
	}
	xlsxDownload(c, fmt.Sprintf("recipients-%d.xlsx", id), func(w io.Writer) error {
		return s.Reports.WriteRecipientsXLSX(c.Request.Context(), who(c).AccountID, id, w)
	})
}
