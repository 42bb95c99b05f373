package pspfake

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Zarinpal session statuses (inquiry.json).
const (
	ZPInBank   = "IN_BANK"
	ZPPaid     = "PAID"
	ZPVerified = "VERIFIED"
	ZPFailed   = "FAILED"
	ZPReversed = "REVERSED"
)

// ErrUnknownSession is a payer action on a session the fake bank does not have.
var ErrUnknownSession = errors.New("pspfake: unknown session")

// zpSession is one Zarinpal payment session.
type zpSession struct {
	amount   int64
	callback string
	status   string
	refID    int64
}

// Zarinpal fakes Zarinpal's REST v4 payment API (request, verify, inquiry,
// reverse under /pg/v4/payment/) and its StartPay page.
type Zarinpal struct {
	switches
	// Merchant is the only merchant id the fake accepts.
	Merchant string
	mu       sync.Mutex
	sessions map[string]*zpSession
}

// NewZarinpal returns a fake Zarinpal for one merchant.
func NewZarinpal(merchant string) *Zarinpal {
	return &Zarinpal{Merchant: merchant, sessions: map[string]*zpSession{}}
}

// ServeHTTP implements http.Handler.
func (z *Zarinpal) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a, ok := strings.CutPrefix(r.URL.Path, "/pg/StartPay/"); ok {
		z.startPay(w, r, a)
		return
	}
	api := map[string]func(map[string]any) any{
		"/pg/v4/payment/request.json": z.request, "/pg/v4/payment/verify.json": z.verify,
		"/pg/v4/payment/inquiry.json": z.inquiry, "/pg/v4/payment/reverse.json": z.reverse,
	}
	h, ok := api[r.URL.Path]
	if !ok || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if !z.enter(w, r) {
		return
	}
	var in map[string]any
	if err := readJSON(r, &in); err != nil {
		writeJSON(w, http.StatusOK, zpError(-9))
		return
	}
	if in["merchant_id"] != z.Merchant {
		writeJSON(w, http.StatusOK, zpError(-10))
		return
	}
	writeJSON(w, http.StatusOK, h(in))
}

// zpError is Zarinpal's error answer: empty data, the code in errors.
func zpError(code int) any {
	return map[string]any{"data": []any{}, "errors": map[string]any{"code": code, "message": "error " + strconv.Itoa(code), "validations": []any{}}}
}

func zpData(d map[string]any) any { return map[string]any{"data": d, "errors": []any{}} }

func (z *Zarinpal) request(in map[string]any) any {
	amount, _ := in["amount"].(float64)
	cb, _ := in["callback_url"].(string)
	desc, _ := in["description"].(string)
	cur, _ := in["currency"].(string)
	if amount < 1000 || cb == "" || desc == "" || len(desc) > 500 || (cur != "" && cur != "IRR" && cur != "IRT") {
		return zpError(-9)
	}
	a := "A" + strings.Repeat("0", 11) + randomHex(24)
	z.mu.Lock()
	z.sessions[a] = &zpSession{amount: int64(amount), callback: cb, status: ZPInBank}
	z.mu.Unlock()
	return zpData(map[string]any{"code": 100, "message": "Success", "authority": a, "fee_type": "Merchant", "fee": 0})
}

func (z *Zarinpal) verify(in map[string]any) any {
	if z.current().VerifyFail {
		return zpError(-52)
	}
	amount, _ := in["amount"].(float64)
	z.mu.Lock()
	defer z.mu.Unlock()
	s, ok := z.sessions[str(in["authority"])]
	switch {
	case !ok:
		return zpError(-54)
	case s.status == ZPVerified:
		return zpData(map[string]any{"code": 101, "message": "Verified", "ref_id": s.refID, "card_pan": "502229******5995", "fee": 0})
	case s.status != ZPPaid:
		return zpError(-51)
	case int64(amount) != s.amount:
		return zpError(-50)
	}
	s.status = ZPVerified
	s.refID, _ = strconv.ParseInt("1"+randomDigits(9), 10, 64)
	return zpData(map[string]any{"code": 100, "message": "Paid", "ref_id": s.refID, "card_pan": "502229******5995",
		"card_hash": randomHex(64), "fee_type": "Merchant", "fee": 0})
}

func (z *Zarinpal) inquiry(in map[string]any) any {
	z.mu.Lock()
	defer z.mu.Unlock()
	s, ok := z.sessions[str(in["authority"])]
	if !ok {
		return zpError(-54)
	}
	return zpData(map[string]any{"code": 100, "message": "Success", "status": s.status})
}

func (z *Zarinpal) reverse(in map[string]any) any {
	if z.current().ReverseFail {
		return zpError(-60)
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	s, ok := z.sessions[str(in["authority"])]
	switch {
	case !ok:
		return zpError(-54)
	case s.status != ZPPaid && s.status != ZPVerified:
		return zpError(-61)
	}
	s.status = ZPReversed
	return zpData(map[string]any{"code": 100, "message": "Reversed"})
}

// Status is a session's status (empty for an unknown authority).
func (z *Zarinpal) Status(authority string) string {
	z.mu.Lock()
	defer z.mu.Unlock()
	if s, ok := z.sessions[authority]; ok {
		return s.status
	}
	return ""
}

// Pay is the payer at StartPay: paid (with WrongAmount, the session's amount
// becomes another) or cancelled. It returns the callback URL Zarinpal sends the
// browser to, with Authority and Status=OK|NOK.
func (z *Zarinpal) Pay(authority string, ok bool) (string, error) {
	wrong := z.current().WrongAmount
	z.mu.Lock()
	defer z.mu.Unlock()
	s, found := z.sessions[authority]
	if !found {
		return "", ErrUnknownSession
	}
	status := "NOK"
	if s.status == ZPInBank {
		s.status = ZPFailed
		if ok {
			s.status = ZPPaid
			if wrong {
				s.amount -= 1000
			}
		}
	}
	if s.status == ZPPaid || s.status == ZPVerified {
		status = "OK"
	}
	sep := "?"
	if strings.Contains(s.callback, "?") {
		sep = "&"
	}
	return s.callback + sep + url.Values{"Authority": {authority}, "Status": {status}}.Encode(), nil
}

// startPay is the StartPay page: GET shows it, POST records the payer's choice and
// redirects to the callback.
func (z *Zarinpal) startPay(w http.ResponseWriter, r *http.Request, authority string) {
	z.mu.Lock()
	s, ok := z.sessions[authority]
	var amount int64
	if ok {
		amount = s.amount
	}
	z.mu.Unlock()
	servePage(w, r, ok, page{Title: "زرین‌پال", Amount: amount}, func(paid bool) {
		to, err := z.Pay(authority, paid)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, to, http.StatusFound)
	})
}

// str is v as a string (JSON strings only).
func str(v any) string {
	s, _ := v.(string)
	return s
}
