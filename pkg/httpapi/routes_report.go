package httpapi

import (
	"net/http"

	"github.com/chapar/chapar/pkg/acl"
)

// reportRoutes lists the report routes.
func (s *Server) reportRoutes() []Route {
	return []Route{
		// Reports (spec §7 Reports).
		{http.MethodGet, "/report/new_list", acl.ReportView, reportList(s.Reports, false)},
		{http.MethodGet, "/report/archive_list", acl.ReportView, reportList(s.Reports, true)},
		{http.MethodGet, "/report/bulk_stats", acl.ReportView, reportBulkStats(s.Reports)},
		{http.MethodGet, "/report/archive_bulk_stats", acl.ReportView, reportBulkStats(s.Reports)},
		{http.MethodGet, "/report/by_bulk", acl.ReportView, reportByBulk(s.Reports)},
		{http.MethodGet, "/report/recipients", acl.ReportView, reportRecipients(s.Reports)},
		{http.MethodGet, "/report/download_recipients", acl.ReportView, reportDownloadRecipients(s.Reports)},
	}
}
