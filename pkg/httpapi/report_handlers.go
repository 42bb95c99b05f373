package httpapi

import (
	"fmt"
	"io"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/report"
)

// The report handlers (spec §7 Reports) take the service as an argument, so the
// route table names them as reportList(s.Reports) and so on.

// reportList is GET /report/new_list (the sends of the last 30 days) or, with
// archive, GET /report/archive_list (the older ones).
func reportList(svc *report.Service, archive bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := report.ParseFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		f.Archive = archive
		rows, total, err := svc.List(c.Request.Context(), who(c).AccountID, f)
		if err != nil {
			Fail(c, err)
			return
		}
		Paged(c, rows, Page{Page: f.Page, Limit: f.Limit, Total: total})
	}
}

// reportBulkStats is GET /report/bulk_stats?id= (and archive_bulk_stats).
func reportBulkStats(svc *report.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := report.ParseID(c.Query("id"))
		if err != nil {
			Fail(c, err)
			return
		}
		st, err := svc.Stats(c.Request.Context(), who(c).AccountID, id)
		if err != nil {
			Fail(c, err)
			return
		}
		OK(c, st)
	}
}

// reportByBulk is GET /report/by_bulk?ids=1,2,3: the caller's sends among the ids.
func reportByBulk(svc *report.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		ids, err := report.ParseIDs(c.Query("ids"))
		if err != nil {
			Fail(c, err)
			return
		}
		out, err := svc.ByBulk(c.Request.Context(), who(c).AccountID, ids)
		if err != nil {
			Fail(c, err)
			return
		}
		OK(c, out)
	}
}

// reportRecipients is GET /report/recipients?id=&status=&mobile=&page=&limit=.
func reportRecipients(svc *report.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		q, err := report.ParseRecipientQuery(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		rows, total, err := svc.RecipientsPage(c.Request.Context(), who(c).AccountID, q)
		if err != nil {
			Fail(c, err)
			return
		}
		Paged(c, rows, Page{Page: q.Page, Limit: q.Limit, Total: total})
	}
}

// reportDownloadRecipients is GET /report/download_recipients?id=: the recipients
// as an Excel file. Errors found before the first byte get the usual envelope.
func reportDownloadRecipients(svc *report.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := report.ParseID(c.Query("id"))
		if err != nil {
			Fail(c, err)
			return
		}
		xlsxDownload(c, fmt.Sprintf("recipients-%d.xlsx", id), func(w io.Writer) error {
			return svc.WriteRecipientsXLSX(c.Request.Context(), who(c).AccountID, id, w)
		})
	}
}
