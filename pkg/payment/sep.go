package payment

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// SEPURL is Saman Electronic Payment's production origin.
const SEPURL = "https://sep.shaparak.ir"

// SEP paths of the token flow.
const (
	sepTokenPath   = "/onlinepg/onlinepg"
	sepPayPath     = "/OnlinePG/SendToken"
	sepVerifyPath  = "/verifyTxnRandomSessionkey/ipg/VerifyTransaction"
	sepReversePath = "/verifyTxnRandomSessionkey/ipg/ReverseTransaction"
)

// SEP result codes of verify and reverse.
const (
	sepOK          = 0
	sepDuplicate   = 2  // verified (or reversed) before: the same transaction again
	sepNotFound    = -2 // no such transaction
	sepAutoReverse = -6 // more than 30 minutes passed: SEP returned the money itself
)

// sepMessages are the Persian messages of SEP's result codes.
var sepMessages = map[int]string{
	sepDuplicate:   "درخواست تکراری است",
	sepNotFound:    "تراکنش یافت نشد",
	sepAutoReverse: "بیش از ۳۰ دقیقه از تراکنش گذشته و مبلغ به پرداخت‌کننده برگشته است",
	-104:           "ترمینال سامان غیرفعال است",
	-105:           "ترمینال سامان یافت نشد",
	-106:           "نشانی IP پذیرنده نزد سامان مجاز نیست",
	5:              "تراکنش پیش‌تر برگشت خورده است",
}

// SEPError is SEP's refusal as an error with its Persian message.
func SEPError(code int, desc string) *PSPError {
	msg, ok := sepMessages[code]
	if !ok {
		msg = "خطای درگاه سامان (کد " + strconv.Itoa(code) + ")"
		if desc != "" {
			msg += ": " + desc
		}
	}
	return &PSPError{Gateway: GatewaySEP, Code: code, Message: msg}
}

// SEP is the Gateway of Saman Electronic Payment's token flow: the merchant asks
// onlinepg for a token with its reservation number (ResNum, the authority here),
// the payer pays at SendToken?token=, SEP posts a form back (State, RefNum, ResNum,
// Amount, …) and the merchant verifies the RefNum with VerifyTransaction, which
// answers the original and affective amounts; ReverseTransaction returns it.
// SEP returns a payment never verified within 30 minutes by itself.
type SEP struct {
	// BaseURL is SEP's origin (SEPURL; a test points it at a fake).
	BaseURL string
	// Terminal gives the terminal id staff configured.
	Terminal func(ctx context.Context) (string, error)
	// Client makes the calls; nil uses one with DefaultPSPTimeout.
	Client *http.Client
	// Label, when set, replaces the name "sep" (tests keep their payments apart).
	Label string
}

// Name implements Gateway.
func (g SEP) Name() string {
	if g.Label != "" {
		return g.Label
	}
	return GatewaySEP
}

func (g SEP) url(path string) string { return strings.TrimRight(g.BaseURL, "/") + path }

// Create implements Gateway: the authority is the reservation number.
func (g SEP) Create(ctx context.Context, total int64, callback, _ string) (string, string, error) {
	terminal, err := g.Terminal(ctx)
	if err != nil {
		return "", "", fmt.Errorf("sep terminal id: %w", err)
	}
	resNum, err := reservation()
	if err != nil {
		return "", "", err
	}
	var a struct {
		Status    int    `json:"status"`
		Token     string `json:"token"`
		ErrorCode string `json:"errorCode"`
		ErrorDesc string `json:"errorDesc"`
	}
	err = postJSON(ctx, g.Client, g.url(sepTokenPath), map[string]any{"action": "token", "TerminalId": terminal,
		"Amount": total, "ResNum": resNum, "RedirectUrl": callback}, &a)
	if err != nil {
		return "", "", err
	}
	if a.Status != 1 || a.Token == "" {
		code, _ := strconv.Atoi(a.ErrorCode)
		return "", "", SEPError(code, a.ErrorDesc)
	}
	return resNum, g.url(sepPayPath) + "?" + url.Values{"token": {a.Token}}.Encode(), nil
}

// ParseCallback implements Gateway over SEP's posted form: ResNum names the
// payment, RefNum the paid transaction to verify; a State other than OK is SEP's
// last word on a payment that did not go through.
func (g SEP) ParseCallback(q url.Values) (Callback, error) {
	c := Callback{Authority: q.Get("ResNum"), OK: q.Get("State") == "OK"}
	if c.Authority == "" || len(c.Authority) > 64 {
		return Callback{}, ErrBadCallback
	}
	if raw := q.Get("Amount"); raw != "" {
		amount, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || amount <= 0 {
			return Callback{}, ErrBadCallback
		}
		c.Amount = amount
	}
	if !c.OK {
		c.Declined = true
		return c, nil
	}
	c.Ref = q.Get("RefNum")
	if c.Ref == "" || len(c.Ref) > 100 {
		return Callback{}, ErrBadCallback
	}
	return c, nil
}

// sepAnswer is VerifyTransaction's and ReverseTransaction's answer.
type sepAnswer struct {
	TransactionDetail struct {
		RRN             string `json:"RRN"`
		RefNum          string `json:"RefNum"`
		MaskedPan       string `json:"MaskedPan"`
		TerminalNumber  int64  `json:"TerminalNumber"`
		OrginalAmount   int64  `json:"OrginalAmount"`
		AffectiveAmount int64  `json:"AffectiveAmount"`
		StraceDate      string `json:"StraceDate"`
		StraceNo        string `json:"StraceNo"`
	} `json:"TransactionDetail"`
	ResultCode        int    `json:"ResultCode"`
	ResultDescription string `json:"ResultDescription"`
	Success           bool   `json:"Success"`
}

// call posts {RefNum, TerminalNumber} to a verify or reverse path.
func (g SEP) call(ctx context.Context, path, ref string) (sepAnswer, error) {
	terminal, err := g.Terminal(ctx)
	if err != nil {
		return sepAnswer{}, fmt.Errorf("sep terminal id: %w", err)
	}
	n, err := strconv.ParseInt(terminal, 10, 64)
	if err != nil {
		return sepAnswer{}, fmt.Errorf("sep terminal id %q: %w", terminal, err)
	}
	var a sepAnswer
	err = postJSON(ctx, g.Client, g.url(path), map[string]any{"RefNum": ref, "TerminalNumber": n}, &a)
	return a, err
}

// Verify implements Gateway: a verified transaction (or one verified before) of
// exactly total rials is paid; another amount is taken money to return; a
// transaction SEP does not know, or already returned after 30 minutes, failed. A
// payment without a RefNum (no callback yet) has nothing to verify.
func (g SEP) Verify(ctx context.Context, t Txn, total int64) (Result, error) {
	if t.Ref == "" {
		return Result{Outcome: OutcomeOpen}, nil
	}
	a, err := g.call(ctx, sepVerifyPath, t.Ref)
	if err != nil {
		return Result{}, err
	}
	switch {
	case a.Success && a.ResultCode == sepOK, a.ResultCode == sepDuplicate:
		d := a.TransactionDetail
		if d.OrginalAmount != total || d.AffectiveAmount != total {
			return Result{Outcome: OutcomeTaken}, nil
		}
		ref := d.RRN
		if ref == "" {
			ref = t.Ref
		}
		return Result{Outcome: OutcomePaid, RefID: ref}, nil
	case a.ResultCode == sepNotFound, a.ResultCode == sepAutoReverse:
		return Result{Outcome: OutcomeFailed}, nil
	}
	return Result{}, SEPError(a.ResultCode, a.ResultDescription)
}

// Inquire implements Gateway: a payment whose callback named its transaction is
// verified next; without one SEP cannot be asked, and the payment waits for its
// session to end (SEP returns what it never verified by itself).
func (g SEP) Inquire(_ context.Context, t Txn) (Result, error) {
	if t.Ref == "" {
		return Result{Outcome: OutcomeOpen}, nil
	}
	return Result{Outcome: OutcomePending}, nil
}

// Reverse implements Gateway; a transaction reversed before (or returned by SEP
// after 30 minutes) needs nothing more.
func (g SEP) Reverse(ctx context.Context, t Txn) error {
	if t.Ref == "" {
		return nil
	}
	a, err := g.call(ctx, sepReversePath, t.Ref)
	if err != nil {
		return err
	}
	if (a.Success && a.ResultCode == sepOK) || a.ResultCode == sepDuplicate || a.ResultCode == 5 || a.ResultCode == sepAutoReverse {
		return nil
	}
	return SEPError(a.ResultCode, a.ResultDescription)
}
