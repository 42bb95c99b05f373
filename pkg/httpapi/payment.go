package httpapi

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/offline"
	"github.com/chapar/chapar/pkg/payment/sandbox"
	"github.com/chapar/chapar/pkg/validate"
)

// paymentRoutes lists the online payment routes. Paying is owner-only (spec §6);
// the bank's callback is public and checked by its signature and a verify call.
// Offline reports and package purchases pay (wallet.pay); the rest read (wallet.view).
func (s *Server) paymentRoutes() []Route {
	return []Route{
		{http.MethodGet, "/payment/generate-url", acl.WalletPay, s.paymentURL},
		{http.MethodGet, "/payment/online/:id", acl.WalletView, getByID(s.Payments.Get)},
		{http.MethodGet, "/payment/callback", acl.Public, s.paymentCallback},
		{http.MethodPost, "/payment/callback", acl.Public, s.paymentCallback},

		// Offline payments (reviewed before crediting), charge packages and the today gift.
		{http.MethodPost, "/payment/offline/card-to-card-create", acl.WalletPay, s.offlineCreate(offline.Card)},
		{http.MethodPost, "/payment/offline/bank-pay-create", acl.WalletPay, s.offlineCreate(offline.Bank)},
		{http.MethodGet, "/payment/offline/list", acl.WalletView, s.offlineList},
		{http.MethodGet, "/payment/offline/card-owner", acl.WalletView, s.cardOwner},
		{http.MethodGet, "/user/setting/payment_method_list", acl.WalletView, s.paymentMethods},
		{http.MethodGet, "/user/setting/parent_account_contact", acl.WalletView, s.parentAccountContact},
		{http.MethodGet, "/payment/charge-packages/dynamics", acl.WalletView, s.chargePackages},
		{http.MethodPost, "/payment/charge-packages/select", acl.WalletPay, s.selectPackage},
		{http.MethodGet, "/payment/promotion/today-charge", acl.WalletView, s.todayCharge},

		// The back office's choice of the online gateway and its ids (shown masked).
		{http.MethodGet, "/admin/payment-gateway", acl.Staff, s.paymentGateway},
		{http.MethodPost, "/admin/payment-gateway", acl.Staff, s.setPaymentGateway},

		// The back office's view of an offline payment under review.
		{http.MethodGet, "/admin/offline-payments/:id", acl.Staff, s.adminOfflinePayment},
		{http.MethodGet, "/admin/offline-payments/:id/receipt", acl.Staff, s.adminOfflineReceipt},
	}
}

// amountSeparators are the thousands separators an amount may be typed with.
var amountSeparators = strings.NewReplacer(",", "", "٬", "", "،", "")

// paymentURL creates a pending online payment and answers the bank page to go to.
func (s *Server) paymentURL(c *gin.Context) {
	id := who(c)
	raw := amountSeparators.Replace(validate.ToLatinDigits(strings.TrimSpace(c.Query("amount"))))
	amount, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		Fail(c, apperr.Field("amount", payment.MsgMinAmount))
		return
	}
	st, err := s.Payments.Start(c.Request.Context(), payment.Request{AccountID: id.AccountID, UserID: id.UserID,
		Amount: amount, ReturnTo: c.Query("callbackUrl"), Description: c.Query("description")})
	reply(c, st, err)
}

// paymentCallback is where the bank sends the payer back (a GET with a query, as
// the sandbox bank and Zarinpal do, or SEP's posted form): the payment is verified
// and settled, then the browser goes on to the panel's result page. A callback
// that does not check out moves nothing and shows a failed result.
func (s *Server) paymentCallback(c *gin.Context) {
	q := c.Request.URL.Query()
	if c.Request.Method == http.MethodPost {
		if err := c.Request.ParseForm(); err == nil {
			q = c.Request.Form
		}
	}
	p, err := s.Payments.Callback(c.Request.Context(), q)
	if err != nil {
		level := slog.LevelError
		if errors.Is(err, payment.ErrBadCallback) || errors.Is(err, payment.ErrAmountMismatch) || errors.Is(err, payment.ErrNoPayment) {
			level = slog.LevelWarn
		}
		slog.Log(c.Request.Context(), level, "payment callback refused", "err", err, "request_id", c.GetString(ctxRequestID))
		c.Redirect(http.StatusSeeOther, payment.DefaultReturn+"?status=invalid")
		return
	}
	c.Redirect(http.StatusSeeOther, p.Return())
}

// mountSandboxBank serves the sandbox bank's page when it is one of the gateways.
func (s *Server) mountSandboxBank(r *gin.Engine) {
	if _, ok := s.Payments.Sandbox(); !ok {
		return
	}
	r.GET(sandbox.PathPrefix+":authority", s.sandboxBankPage)
	r.POST(sandbox.PathPrefix+":authority", s.sandboxBankPage)
}

// sandboxBankPage is the sandbox bank's payment page (mounted only when the
// sandbox is the gateway).
func (s *Server) sandboxBankPage(c *gin.Context) {
	gw, _ := s.Payments.Sandbox()
	gw.Bank.ServePage(c.Writer, c.Request, c.Param("authority"))
}

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
	withID(c, func(id int64) (any, error) { return s.Offline.ForReview(c.Request.Context(), id) })
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

// paymentGateway answers the staff's gateway settings, the ids masked.
func (s *Server) paymentGateway(c *gin.Context) {
	if s.Payments.Settings == nil {
		Fail(c, apperr.ErrNotFound)
		return
	}
	v, err := s.Payments.Settings.View(c.Request.Context())
	reply(c, v, err)
}

// setPaymentGateway stores the staff's choice of gateway and any new id.
func (s *Server) setPaymentGateway(c *gin.Context) {
	var in payment.GatewayChange
	if s.Payments.Settings == nil {
		Fail(c, apperr.ErrNotFound)
		return
	}
	if !bind(c, &in) {
		return
	}
	v, err := s.Payments.Settings.Set(c.Request.Context(), who(c), in, c.ClientIP())
	reply(c, v, err)
}
