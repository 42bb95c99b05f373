package httpapi

import (
	"io"
	"log/slog"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/validate"
)

// OfflineBodyLimit bounds an offline payment report: the receipt and its form fields.
const OfflineBodyLimit int64 = offline.MaxReceipt + 64<<10

// offlineCreate answers a card-to-card or bank transfer report (multipart form).
func (s *Server) offlineCreate(method string) gin.HandlerFunc {
	return func(c *gin.Context) {
		// Small fields stay in memory, the receipt (at most the body limit) too.
		if err := c.Request.ParseMultipartForm(OfflineBodyLimit); err != nil {
			Fail(c, badForm(err))
			return
		}
		f := c.Request.MultipartForm
		defer func() { _ = f.RemoveAll() }()
		source := c.PostForm("card_number")
		if method == offline.Bank {
			source = c.PostForm("sheba")
		}
		r := offline.Report{Method: method, Amount: c.PostForm("amount"), Source: source,
			TrackingNumber: c.PostForm("tracking_number"), TransferredAt: c.PostForm("transferred_at"), IP: c.ClientIP()}
		if fh := firstFile(f, "receipt"); fh != nil {
			file, err := fh.Open()
			if err != nil {
				Fail(c, err)
				return
			}
			defer file.Close()
			r.Receipt, r.ReceiptName = file, fh.Filename
		}
		p, err := s.Offline.Create(c.Request.Context(), who(c), r)
		replyCreated(c, p, err)
	}
}

// offlineList answers a page of the caller's offline payment reports.
func (s *Server) offlineList(c *gin.Context) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 10, 100)
	if err != nil {
		Fail(c, err)
		return
	}
	rows, total, err := s.Offline.List(c.Request.Context(), who(c).AccountID, p)
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: p.Page, Limit: p.Limit, Total: total})
}

func (s *Server) cardOwner(c *gin.Context) {
	o, err := s.PayDirectory.CardOwner(c.Request.Context())
	reply(c, o, err)
}

func (s *Server) paymentMethods(c *gin.Context) { OK(c, s.PayDirectory.Dest.Methods()) }

func (s *Server) parentAccountContact(c *gin.Context) { OK(c, s.PayDirectory.Dest) }

func (s *Server) chargePackages(c *gin.Context) {
	p, err := s.Payments.Packages(c.Request.Context())
	reply(c, p, err)
}

// selectPackage starts the online payment of a charge package.
func (s *Server) selectPackage(c *gin.Context) {
	var in struct {
		PackageID   int64  `json:"package_id"`
		CallbackURL string `json:"callbackUrl"`
		Description string `json:"description"`
	}
	if !bind(c, &in) {
		return
	}
	id := who(c)
	st, err := s.Payments.StartPackage(c.Request.Context(), payment.Request{AccountID: id.AccountID, UserID: id.UserID,
		ReturnTo: in.CallbackURL, Description: in.Description}, in.PackageID)
	reply(c, st, err)
}

func (s *Server) todayCharge(c *gin.Context) {
	g, err := s.Payments.TodayGift(c.Request.Context(), who(c).AccountID)
	reply(c, g, err)
}

// adminOfflinePayment answers one offline payment report's details, for staff.
func (s *Server) adminOfflinePayment(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	p, err := s.Offline.ForReview(c.Request.Context(), id)
	reply(c, p, err)
}

// adminOfflineReceipt streams a report's receipt, for staff.
func (s *Server) adminOfflineReceipt(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	p, rc, err := s.Offline.Receipt(c.Request.Context(), id)
	if err != nil {
		Fail(c, err)
		return
	}
	defer rc.Close()
	ext := map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "application/pdf": ".pdf"}[p.ReceiptType]
	startDownload(c, p.ReceiptType, "receipt-"+strconv.FormatInt(p.ID, 10)+ext)
	if _, err := io.Copy(c.Writer, rc); err != nil {
		slog.WarnContext(c.Request.Context(), "receipt download cut short", "offline_payment", p.ID, "err", err)
	}
}
