package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/payment"
	"github.com/chapar/chapar/pkg/payment/sandbox"
	"github.com/chapar/chapar/pkg/validate"
)

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

// paymentGet answers one payment of the caller's account.
func (s *Server) paymentGet(c *gin.Context) {
	pid, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	p, err := s.Payments.Get(c.Request.Context(), who(c).AccountID, pid)
	reply(c, p, err)
}

// paymentCallback is where the bank sends the payer back: the payment is verified
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

// mountSandboxBank serves the sandbox bank's page when it is the gateway.
func (s *Server) mountSandboxBank(r *gin.Engine) {
	gw, ok := s.Payments.Gateway().(payment.SandboxGateway)
	if !ok {
		return
	}
	h := func(c *gin.Context) { gw.Bank.ServePage(c.Writer, c.Request, c.Param("authority")) }
	r.GET(sandbox.PathPrefix+":authority", h)
	r.POST(sandbox.PathPrefix+":authority", h)
}
