package httpapi

import (
	"io"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/auditlog"
)

// auditList is GET /user/audit?user_id=&action=&date_from=&date_to=&page=&limit=.
func auditList(svc *auditlog.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := auditlog.ParseFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		rows, total, err := svc.List(c.Request.Context(), who(c).AccountID, f)
		if err != nil {
			Fail(c, err)
			return
		}
		Paged(c, rows, Page{Page: f.Page, Limit: f.Limit, Total: total})
	}
}

// auditOptions is GET /user/audit/options: the action codes and users to filter by.
func auditOptions(svc *auditlog.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := svc.Options(c.Request.Context(), who(c).AccountID)
		reply(c, out, err)
	}
}

// auditExport is GET /user/audit/export with the list's filters: an Excel file.
func auditExport(svc *auditlog.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := auditlog.ParseFilter(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		xlsxDownload(c, "audit-log.xlsx", func(w io.Writer) error {
			return svc.WriteXLSX(c.Request.Context(), who(c).AccountID, f, w)
		})
	}
}
