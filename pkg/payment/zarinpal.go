package payment

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// ZarinpalURL is Zarinpal's production origin.
const ZarinpalURL = "https://payment.zarinpal.com"

// Zarinpal codes of its REST v4 API (request, verify, inquiry, reverse).
const (
	zpOK               = 100
	zpAlreadyVerified  = 101
	zpValidation       = -9
	zpAmountMismatch   = -50
	zpSessionFailed    = -51
	zpUnexpected       = -52
	zpOtherMerchant    = -53
	zpInvalidAuthority = -54
	zpNotVerified      = -61
)

// zarinpalMessages are the Persian messages of Zarinpal's error codes.
var zarinpalMessages = map[int]string{
	zpValidation:       "اطلاعات ارسالی به زرین‌پال معتبر نیست (مرچنت کد، مبلغ، آدرس بازگشت یا توضیحات)",
	-10:                "مرچنت کد یا نشانی IP پذیرنده در زرین‌پال معتبر نیست",
	-11:                "مرچنت کد زرین‌پال فعال نیست",
	-12:                "تلاش بیش از حد مجاز در زمان کوتاه؛ کمی بعد دوباره تلاش کنید",
	-15:                "درگاه پرداخت زرین‌پال تعلیق شده است",
	-16:                "سطح تأیید پذیرنده در زرین‌پال کافی نیست",
	zpAmountMismatch:   "مبلغ پرداخت‌شده با مبلغ تراکنش برابر نیست",
	zpSessionFailed:    "پرداخت ناموفق بود",
	zpUnexpected:       "خطای غیرمنتظره در زرین‌پال؛ کمی بعد دوباره بررسی می‌شود",
	zpOtherMerchant:    "این تراکنش متعلق به این پذیرنده نیست",
	zpInvalidAuthority: "شناسه تراکنش (Authority) معتبر نیست",
	-60:                "برگشت تراکنش با بانک ممکن نیست",
	zpNotVerified:      "تراکنش تأییدشده نیست و برگشت‌پذیر نیست",
	-62:                "نشانی IP سرور برای درگاه زرین‌پال تنظیم نشده است",
	-63:                "مهلت ۳۰ دقیقه‌ای برگشت تراکنش گذشته است",
}

// ZarinpalError is Zarinpal's refusal as an error with its Persian message.
func ZarinpalError(code int) *PSPError {
	msg, ok := zarinpalMessages[code]
	if !ok {
		msg = "خطای درگاه زرین‌پال (کد " + strconv.Itoa(code) + ")"
	}
	return &PSPError{Gateway: GatewayZarinpal, Code: code, Message: msg}
}

// Zarinpal is the Gateway of Zarinpal's REST v4 API: request.json opens a session
// (its authority), the payer pays at StartPay/{authority}, Zarinpal sends the
// browser back with ?Authority=&Status=OK|NOK (unsigned: verify.json, with the
// merchant id and the amount, decides), inquiry.json tells a session's status and
// reverse.json returns a verified payment within 30 minutes.
type Zarinpal struct {
	// BaseURL is Zarinpal's origin (ZarinpalURL; a test points it at a fake).
	BaseURL string
	// Merchant gives the 36-character merchant id staff configured.
	Merchant func(ctx context.Context) (string, error)
	// Client makes the calls; nil uses one with DefaultPSPTimeout.
	Client *http.Client
	// Label, when set, replaces the name "zarinpal" (tests keep their payments apart).
	Label string
}

// Name implements Gateway.
func (z Zarinpal) Name() string {
	if z.Label != "" {
		return z.Label
	}
	return GatewayZarinpal
}

// zpAnswer is every Zarinpal answer: data is an object on success, an empty
// array on an error, when errors holds the code.
type zpAnswer struct {
	Data   json.RawMessage `json:"data"`
	Errors json.RawMessage `json:"errors"`
}

// zpData is the fields of data used here.
type zpData struct {
	Code      int    `json:"code"`
	Message   string `json:"message"`
	Authority string `json:"authority"`
	RefID     int64  `json:"ref_id"`
	Status    string `json:"status"`
}

// call posts one request with the merchant id and answers data's code and fields;
// a code in errors is returned as data's code.
func (z Zarinpal) call(ctx context.Context, path string, body map[string]any) (zpData, error) {
	merchant, err := z.Merchant(ctx)
	if err != nil {
		return zpData{}, fmt.Errorf("zarinpal merchant id: %w", err)
	}
	body["merchant_id"] = merchant
	var a zpAnswer
	if err := postJSON(ctx, z.Client, strings.TrimRight(z.BaseURL, "/")+path, body, &a); err != nil {
		return zpData{}, err
	}
	var d zpData
	if len(a.Data) > 0 && a.Data[0] == '{' {
		if err := json.Unmarshal(a.Data, &d); err != nil {
			return d, fmt.Errorf("zarinpal data: %w", err)
		}
	}
	var e struct {
		Code int `json:"code"`
	}
	if len(a.Errors) > 0 && a.Errors[0] == '{' && json.Unmarshal(a.Errors, &e) == nil && e.Code != 0 {
		d.Code = e.Code
	}
	if d.Code == 0 {
		return d, fmt.Errorf("zarinpal %s: an answer without a code", path)
	}
	return d, nil
}

// Create implements Gateway: amounts are rials (currency IRR).
func (z Zarinpal) Create(ctx context.Context, total int64, callback, description string) (string, string, error) {
	if description == "" {
		description = "شارژ کیف پول"
	}
	d, err := z.call(ctx, "/pg/v4/payment/request.json", map[string]any{"amount": total, "currency": "IRR",
		"callback_url": callback, "description": description})
	if err != nil {
		return "", "", err
	}
	if d.Code != zpOK || d.Authority == "" {
		return "", "", ZarinpalError(d.Code)
	}
	return d.Authority, strings.TrimRight(z.BaseURL, "/") + "/pg/StartPay/" + url.PathEscape(d.Authority), nil
}

// ParseCallback implements Gateway. Zarinpal does not sign its callback: only the
// authority and status are read, and the verify call decides.
func (z Zarinpal) ParseCallback(q url.Values) (Callback, error) {
	a := q.Get("Authority")
	if a == "" || len(a) > 64 {
		return Callback{}, ErrBadCallback
	}
	return Callback{Authority: a, OK: q.Get("Status") == "OK"}, nil
}

// Verify implements Gateway: 100 and 101 (verified before) are paid; -50 (the
// payer paid another amount) is taken money to return; -51, -53 and -54 failed;
// any other code is an error and the payment stays pending.
func (z Zarinpal) Verify(ctx context.Context, t Txn, total int64) (Result, error) {
	d, err := z.call(ctx, "/pg/v4/payment/verify.json", map[string]any{"amount": total, "authority": t.Authority})
	if err != nil {
		return Result{}, err
	}
	switch d.Code {
	case zpOK, zpAlreadyVerified:
		return Result{Outcome: OutcomePaid, RefID: strconv.FormatInt(d.RefID, 10)}, nil
	case zpAmountMismatch:
		return Result{Outcome: OutcomeTaken}, nil
	case zpSessionFailed, zpOtherMerchant, zpInvalidAuthority:
		return Result{Outcome: OutcomeFailed}, nil
	}
	return Result{}, ZarinpalError(d.Code)
}

// Inquire implements Gateway: PAID and VERIFIED are verified next (verify answers
// the reference), IN_BANK is a payer still paying, FAILED and REVERSED failed.
func (z Zarinpal) Inquire(ctx context.Context, t Txn) (Result, error) {
	d, err := z.call(ctx, "/pg/v4/payment/inquiry.json", map[string]any{"authority": t.Authority})
	if err != nil {
		return Result{}, err
	}
	if d.Code != zpOK {
		if d.Code == zpInvalidAuthority {
			return Result{Outcome: OutcomeFailed}, nil
		}
		return Result{}, ZarinpalError(d.Code)
	}
	switch d.Status {
	case "PAID", "VERIFIED":
		return Result{Outcome: OutcomePending}, nil
	case "IN_BANK":
		return Result{Outcome: OutcomeOpen}, nil
	case "FAILED", "REVERSED":
		return Result{Outcome: OutcomeFailed}, nil
	}
	return Result{}, fmt.Errorf("zarinpal inquiry: unknown status %q", d.Status)
}

// Reverse implements Gateway: the payment's money goes back to the payer's card.
// -61 (not a verified payment) needs nothing: Zarinpal returns money it was never
// told to keep by itself.
func (z Zarinpal) Reverse(ctx context.Context, t Txn) error {
	d, err := z.call(ctx, "/pg/v4/payment/reverse.json", map[string]any{"authority": t.Authority})
	if err != nil {
		return err
	}
	if d.Code != zpOK && d.Code != zpNotVerified {
		return ZarinpalError(d.Code)
	}
	return nil
}
