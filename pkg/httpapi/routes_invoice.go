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
	c := s.Config
	svc := invoice.New(s.Pool, invoice.Seller{Name: c.InvoiceSellerName, NationalID: c.InvoiceSellerNationalID,
		EconomicCode: c.InvoiceSellerEconomicCode, Address: c.InvoiceSellerAddress, Phone: c.InvoiceSellerPhone}, c.ChromiumPath)
	return []Route{
		{http.MethodGet, "/payment/invoice/:id", acl.WalletView, invoiceDownload(svc)},
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
