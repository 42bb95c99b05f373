package httpapi

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/invoice"
)

// invoiceRoutes lists the invoice download of a paid online payment and the
// seller's details printed on every invoice (staff settings).
func (s *Server) invoiceRoutes() []Route {
	return []Route{
		{http.MethodGet, "/payment/invoice/:id", acl.WalletView, s.invoiceDownload},
		{http.MethodGet, "/admin/invoice-seller", acl.Staff, s.invoiceSeller},
		{http.MethodPost, "/admin/invoice-seller", acl.Staff, s.setInvoiceSeller},
	}
}

// invoiceDownload streams the PDF invoice of a paid payment of the caller's account.
func (s *Server) invoiceDownload(c *gin.Context) {
	pid, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	pdf, err := s.Invoices.PDF(c.Request.Context(), who(c).AccountID, pid)
	if err != nil {
		Fail(c, err)
		return
	}
	startDownload(c, "application/pdf", "فاکتور-"+strconv.FormatInt(pid, 10)+".pdf")
	_, _ = c.Writer.Write(pdf)
}

// invoiceSeller answers the seller's details and whether they are complete.
func (s *Server) invoiceSeller(c *gin.Context) {
	v, err := s.Invoices.Seller(c.Request.Context())
	reply(c, gin.H{"seller": v, "complete": v.Complete()}, err)
}

// setInvoiceSeller saves the seller's details (complete ones only).
func (s *Server) setInvoiceSeller(c *gin.Context) {
	var in invoice.Seller
	if !bind(c, &in) {
		return
	}
	v, err := s.Invoices.SetSeller(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, gin.H{"seller": v, "complete": err == nil}, err)
}
