package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/wallet/transactions"
)

// walletRoutes lists the transactions (spec §7 Payment) and low-balance alert routes.
func (s *Server) walletRoutes() []Route {
	return []Route{
		{http.MethodPost, "/report/payment/new", acl.WalletView, s.transactionList},
		{http.MethodPost, "/report/payment/export/new", acl.WalletView, s.transactionExport},
		// The owner's alert threshold.
		{http.MethodGet, "/user/setting/low_balance", acl.WalletAlert, byAccount(s.Alerts.Setting)},
		{http.MethodPost, "/user/setting/low_balance", acl.WalletAlert, s.lowBalanceSet},
	}
}

// transactionList is POST /report/payment/new: one page of the ledger. The filters
// (type, date_from, date_to, amount_from, amount_to, search, page, limit) come as a
// JSON object or in the query string.
func (s *Server) transactionList(c *gin.Context) {
	q, ok := filterForm(c)
	if !ok {
		return
	}
	f, err := transactions.ParseFilter(q)
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Transactions.List(c.Request.Context(), who(c).AccountID, f)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: f.Page, Limit: f.Limit, Total: total})
}

// transactionExport is POST /report/payment/export/new {"export_type": "financial",
// …the list's filters}: the matching transactions as an Excel file.
func (s *Server) transactionExport(c *gin.Context) {
	q, ok := filterForm(c)
	if !ok {
		return
	}
	f, err := transactions.ParseExport(q)
	if err != nil {
		Fail(c, err)
		return
	}
	xlsxDownload(c, "transactions.xlsx", func(w io.Writer) error {
		return s.Transactions.WriteXLSX(c.Request.Context(), who(c).AccountID, f, w)
	})
}

// filterForm merges a JSON object body (strings, numbers or null; may be absent)
// over the query string, answering 422 itself when the body is not such an object.
func filterForm(c *gin.Context) (url.Values, bool) {
	q := c.Request.URL.Query()
	if c.Request.ContentLength == 0 {
		return q, true
	}
	var body map[string]any
	if !bind(c, &body) {
		return nil, false
	}
	for k, v := range body {
		switch v := v.(type) {
		case nil:
		case string:
			q.Set(k, v)
		case float64:
			q.Set(k, strconv.FormatFloat(v, 'f', -1, 64))
		case json.Number:
			q.Set(k, v.String())
		default:
			q.Set(k, fmt.Sprint(v))
		}
	}
	return q, true
}

// lowBalanceSet is POST /user/setting/low_balance {"enabled", "threshold"} (rials,
// at least wallet.MinAlertThreshold when enabled).
func (s *Server) lowBalanceSet(c *gin.Context) {
	var req struct {
		Enabled   bool  `json:"enabled"`
		Threshold int64 `json:"threshold"`
	}
	if !bind(c, &req) {
		return
	}
	id := who(c)
	st, err := s.Alerts.Set(c.Request.Context(), id.AccountID, id.UserID, req.Enabled, req.Threshold)
	reply(c, st, err)
}
