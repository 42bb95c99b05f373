package httpapi

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/invoice"
)

// invoiceRoutes lists the invoice download of a paid online payment.
func (s *Server) invoiceRoutes() []Route {
	svc := s.Invoices
	return []Route{
		{http.MethodGet, "/payment/invoice/:id", acl.WalletView, invoiceDownload(svc)},
		// The seller's details printed on every invoice (staff settings).
		{http.MethodGet, "/admin/invoice-seller", acl.Staff, func(c *gin.Context) {
			v, err := svc.Seller(c.Request.Context())
			reply(c, gin.H{"seller": v, "complete": v.Complete()}, err)
		}},
		{http.MethodPost, "/admin/invoice-seller", acl.Staff, func(c *gin.Context) {
			var in invoice.Seller
			if !bind(c, &in) {
				return
			}
			v, err := svc.SetSeller(c.Request.Context(), who(c), in, c.ClientIP())
			reply(c, gin.H{"seller": v, "complete": err == nil}, err)
		}},
	}
}

// invoiceDownload streams the PDF invoice of a paid payment of the caller's account.
func invoiceDownload(svc *invoice.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		pid, err := pathID(c)
		if err != nil {
			Fail(c, err)
			return
		}
		pdf, err := svc.PDF(c.Request.Context(), who(c).AccountID, pid)
		if err != nil {
			Fail(c, err)
			return
		}
		startDownload(c, "application/pdf", "فاکتور-"+strconv.FormatInt(pid, 10)+".pdf")
		_, _ = c.Writer.Write(pdf)
	}
}
